// PLACEHOLDER: tests being written.
#include <gtest/gtest.h>
