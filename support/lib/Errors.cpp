#include "opmig/support/Errors.h"

char opmig::InputError::ID = 0;
