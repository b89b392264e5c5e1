// Text inside a Graphviz DOT quoted string, shared by the DOT writers
// (grug2dot's recipe picture, resource/allocation_dot.h's allocation
// picture): any name a graph holds must give a file `dot` accepts.
#pragma once

#include <string>
#include <string_view>

namespace rq {

// `"` and `\` escaped (a name ending in `\` would otherwise swallow the
// closing quote, and `\N`-style label escapes would be expanded), line
// breaks as `\n`, other control characters as blanks. Without the quotes.
std::string dot_escaped(std::string_view text);

}  // namespace rq
