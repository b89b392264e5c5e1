#include "state/input_privacy.h"

#include <nlohmann/json.hpp>

#include "resource/jobspec.h"
#include "session/command_words.h"

namespace rq::state {

bool could_have_used(const Session& s, const std::string& word, const std::string& text) {
    if (is_command(word, {"update", "attach", "partial-cancel"})) return nlohmann::json::accept(text);
    return s.graph && parse_jobspec(text, s.graph->types()).ok();
}

}  // namespace rq::state
