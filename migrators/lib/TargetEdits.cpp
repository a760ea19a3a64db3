// PLACEHOLDER: being written; replaced before this lands.
#include "opmig/migrate/TargetEdits.h"
