// JSON text in the reference's layout (spec/README.md "JSON text layout"):
// the output of jansson with indent 0 and no compact flag, i.e.
//
//     {"k1": v1, "k2": [a, b]}
//
// on one line, `", "` between members/elements, `": "` after keys, keys in
// insertion order, `{}`/`[]` for empty containers. Strings escape `"`, `\`
// and control characters (`\n`, `\t`, `\r`, `\b`, `\f`, else `\u00XX`);
// `/` and non-ASCII bytes are written unchanged.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rq {

std::string json_text(const nlohmann::ordered_json& value);

// Appends the quoted, escaped form of `text` to `out`.
void append_json_string(std::string& out, const std::string& text);

}  // namespace rq
