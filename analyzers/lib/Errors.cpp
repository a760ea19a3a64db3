#include "opmig/analyze/Errors.h"

char opmig::InputError::ID = 0;
