// PLACEHOLDER: being written (A1); replaced before this lands.
#include "Checkers.h"
