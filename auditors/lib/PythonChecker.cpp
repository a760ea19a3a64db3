// PLACEHOLDER: being written (A2); replaced before this lands.
#include "Checkers.h"
