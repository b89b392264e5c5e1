#include "session/command_words.h"

#include <cstring>

namespace rq {

const std::vector<CommandWord>& command_words() {
    static const std::vector<CommandWord> words = {
        {"match", "m"},          {"multi-match", "M"},  {"update", "u"},      {"attach", "j"},
        {"remove", "r"},         {"find", "f"},         {"cancel", "c"},      {"partial-cancel", "pc"},
        {"set-property", "p"},   {"get-property", "g"}, {"set-status", "t"},  {"get-status", "e"},
        {"request", "rr"},       {"hwdetect", "hw"},    {"list", "l"},        {"info", "i"},
        {"stat", "s"},           {"save", "sv"},        {"dump", "dp"},       {"allocated", "al"},  {"available", "av"},
        {"submit", "sb"},        {"set-priority", "sp"}, {"dequeue", "dq"},   {"queue", "qu"},
        {"time", "tm"},          {"advance", "ad"},     {"run", "rn"},        {"queue-add", "qa"},
        {"queue-manager", "qm"}, {"cat", "a"},          {"help", "h"},        {"quit", "q"},
    };
    return words;
}

const CommandWord* find_command_word(const std::string& word) {
    for (auto& w : command_words())
        if (word == w.name || word == w.abbreviation) return &w;
    return nullptr;
}

bool is_command(const std::string& word, std::initializer_list<const char*> names) {
    const CommandWord* c = find_command_word(word);
    if (c == nullptr) return false;
    for (const char* name : names)
        if (std::strcmp(c->name, name) == 0) return true;
    return false;
}

}  // namespace rq
