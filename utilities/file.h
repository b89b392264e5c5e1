// Reading a whole file into a string.
#pragma once

#include <string>

namespace rq {

// Replaces `text` with the contents of `path`; false if it cannot be read.
// Reuses `text`'s capacity, which matters when a script matches the same
// jobspec thousands of times.
bool read_file(const std::string& path, std::string& text);

}  // namespace rq
