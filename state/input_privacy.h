// Which input files of a failed command the journal keeps (docs/state.md, Privacy).
#pragma once

#include <string>

#include "session/session.h"

namespace rq::state {

// Whether a failed command can have acted on `text`: for update, attach
// and partial-cancel a JSON document (R, JGF), for the others a jobspec.
// Anything else (a password file given by mistake) it refused whole, and
// replay with the file unreadable fails the same way.
bool could_have_used(const Session& s, const std::string& word, const std::string& text);

}  // namespace rq::state
