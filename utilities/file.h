// Reading a whole file into a string.
#pragma once

#include <string>

namespace rq {

// Replaces `text` with the contents of `path`; false if it cannot be read
// (a directory cannot). Reuses `text`'s capacity, which matters when a
// script matches the same jobspec thousands of times. On failure `why`, if
// given, receives the C library's reason ("Is a directory", ...).
bool read_file(const std::string& path, std::string& text, std::string* why = nullptr);

}  // namespace rq
