// Interned names: resource types and subsystems.
//
// The reference orders several outputs (rlite children, JGF paths, pruning
// types) by *first-seen* order of these names, with a fixed set of built-in
// names first (spec/README.md "Interned strings"). An Interner hands out
// dense ids in that order, so "sort by id" is "sort by interning order".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rq {

using TypeId = uint16_t;
using SubsystemId = uint16_t;
inline constexpr uint16_t kNoId = UINT16_MAX;

class Interner {
public:
    explicit Interner(std::vector<std::string> builtins = {});

    // Id of `name`, adding it if new (unless frozen: then kNoId).
    uint16_t intern(std::string_view name);
    // Id of `name`, adding it even when frozen: readers that grow a loaded
    // graph (attach) may bring new types. kNoId only when the id space is
    // exhausted.
    uint16_t intern_always(std::string_view name);
    // Id of `name` or kNoId; never adds.
    uint16_t find(std::string_view name) const;
    const std::string& name(uint16_t id) const { return names_[id]; }
    size_t size() const { return names_.size(); }

    // After the graph is loaded the type set is frozen: jobspecs naming an
    // unknown type are rejected (spec/jobspec.md §2).
    void freeze() { frozen_ = true; }
    void thaw() { frozen_ = false; }
    bool frozen() const { return frozen_; }

private:
    std::vector<std::string> names_;
    std::unordered_map<std::string, uint16_t> ids_;
    bool frozen_ = false;
};

// Built-in type ids, in the reference's interning order.
namespace types {
inline constexpr TypeId kCluster = 0;
inline constexpr TypeId kCore = 1;
inline constexpr TypeId kSocket = 2;
inline constexpr TypeId kGpu = 3;
inline constexpr TypeId kNode = 4;
inline constexpr TypeId kRack = 5;
inline constexpr TypeId kSlot = 6;
inline constexpr TypeId kXorSlot = 7;
inline constexpr TypeId kSsd = 8;
inline constexpr TypeId kStorageNode = 9;
}  // namespace types

inline constexpr SubsystemId kContainment = 0;

Interner make_type_interner();
Interner make_subsystem_interner();

}  // namespace rq
