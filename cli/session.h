// The Session moved to session/session.h (shared by the REPL and the
// reapi_cli library); this include keeps the old path working.
#pragma once

#include "session/session.h"
