#include "resource/interner.h"

namespace rq {

Interner::Interner(std::vector<std::string> builtins) {
    for (auto& n : builtins) intern(n);
}

uint16_t Interner::intern(std::string_view name) {
    auto it = ids_.find(std::string(name));
    if (it != ids_.end()) return it->second;
    if (frozen_ || names_.size() >= kNoId) return kNoId;
    auto id = static_cast<uint16_t>(names_.size());
    names_.emplace_back(name);
    ids_.emplace(std::string(name), id);
    return id;
}

uint16_t Interner::intern_always(std::string_view name) {
    bool was_frozen = frozen_;
    frozen_ = false;
    uint16_t id = intern(name);
    frozen_ = was_frozen;
    return id;
}

uint16_t Interner::find(std::string_view name) const {
    auto it = ids_.find(std::string(name));
    return it == ids_.end() ? kNoId : it->second;
}

Interner make_type_interner() {
    return Interner({"cluster", "core", "socket", "gpu", "node", "rack", "slot",
                     "xor_slot", "ssd", "storage_node"});
}

Interner make_subsystem_interner() { return Interner({"containment"}); }

}  // namespace rq
