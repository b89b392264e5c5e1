#include "pools/env_writer.h"

#include <algorithm>
#include <cctype>
#include <ostream>

namespace rq::pools {

namespace {

bool shell_name(const std::string& n) {
    if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) return false;
    for (char c : n)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

bool plain_word(const std::string& n) {
    for (char c : n)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/' || c == '.' || c == '-' || c == '+' ||
              c == ':' || c == '@' || c == '%'))
            return false;
    return !n.empty();
}

std::string upper(std::string s) {
    for (char& c : s) c = std::isalnum(static_cast<unsigned char>(c)) ? char(std::toupper(static_cast<unsigned char>(c))) : '_';
    return s;
}

// HyperQueue's variable suffix: ASCII letters and digits kept, case and
// all; anything else becomes '_' (`gpus/nvidia` -> `gpus_nvidia`).
std::string hq_env_name(const std::string& name) {
    std::string out = name;
    for (char& c : out)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
    return out;
}

// canary's resource name: "cpus" -> "cpu", "gpus" -> "gpu".
std::string singular(const std::string& name) {
    return name.size() > 1 && name.back() == 's' ? name.substr(0, name.size() - 1) : name;
}

std::string join_ids(const std::vector<std::pair<std::string, int64_t>>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + ids[i].first;
    return out;
}

// Fills each %(<stem>_ids)s of `text` with ids_of(stem); text that is not
// a placeholder is kept (check_placeholders refused the rest).
std::string expand_placeholders(const std::string& text, const std::function<std::string(const std::string&)>& ids_of) {
    std::string out;
    size_t from = 0;
    for (size_t at = text.find("%("); at != std::string::npos; at = text.find("%(", from)) {
        size_t close = text.find(")s", at);
        if (close == std::string::npos) break;
        std::string key = text.substr(at + 2, close - at - 2);
        out += text.substr(from, at - from);
        if (key.size() > 4 && key.compare(key.size() - 4, 4, "_ids") == 0)
            out += ids_of(key.substr(0, key.size() - 4));
        else
            out += text.substr(at, close + 2 - at);
        from = close + 2;
    }
    return out + text.substr(from);
}

}  // namespace

std::string shell_quote(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

bool is_env_format(const std::string& format) { return format == "env" || format == "env_export"; }

Result<std::unique_ptr<MatchWriter>> make_pool_writer(const std::string& format) {
    if (is_env_format(format)) return std::unique_ptr<MatchWriter>(new EnvWriter(format == "env_export"));
    return make_writer(format);
}

EnvWriter::PoolIds& EnvWriter::pool(const std::string& name) {
    for (auto& p : pools_)
        if (p.name == name) return p;
    pools_.push_back({name, true, 0, {}, {}});
    return pools_.back();
}

void EnvWriter::set_allocation(const Allocation& a, const ResourceGraph& graph, Dialect dialect,
                               const std::string& worker) {
    reset();
    have_allocation_ = true;
    dialect_ = dialect;
    worker_ = worker;
    reserved_at_ = a.at;
    for (const PoolTake& take : a.pools) {
        PoolIds& p = pool(take.name);
        // HyperQueue's AllocationRequest as it prints it:
        // crates/tako/src/internal/common/resources/request.rs:85-96.
        p.request = take.all ? "all" : std::to_string(take.total()) + " " + strategy_name(take.strategy);
        for (const ItemTake& i : take.items) {
            // A sum pool is one vertex named after its type: no identity.
            if (graph.name(i.item) == graph.type_name(i.item)) p.indexed = false;
            p.ids.push_back({std::string(graph.name(i.item)), i.amount});
            p.total += i.amount;
        }
    }
    for (auto& group : a.ctest_groups) {
        ctest_.emplace_back();
        for (const ItemTake& i : group) {
            ctest_.back().push_back({graph.type_name(i.item), {std::string(graph.name(i.item)), i.amount}});
            PoolIds& p = pool(graph.type_name(i.item));
            std::string id(graph.name(i.item));
            auto same = std::find_if(p.ids.begin(), p.ids.end(), [&](auto& e) { return e.first == id; });
            if (same == p.ids.end())
                p.ids.push_back({id, i.amount});
            else
                same->second += i.amount;
            p.total += i.amount;
        }
    }
}

void EnvWriter::time(int64_t start, int64_t end) {
    if (have_allocation_) return;
    if (start == 0 && end == 0) find_ = true;  // find (traversers/find.cc): no allocation
    reserved_at_ = start;
}

void EnvWriter::vertex(const ResourceGraph& graph, const VertexEmission& v) {
    if (have_allocation_) return;
    // A match on several workers names each it used, as a request does.
    if (graph.type_name(v.vertex) == "node" && graph.by_type(graph.type(v.vertex)).size() > 1)
        matched_workers_.push_back(std::string(graph.name(v.vertex)));
    if (!v.exclusive) return;
    PoolIds& p = pool(graph.type_name(v.vertex));
    if (graph.name(v.vertex) == graph.type_name(v.vertex)) p.indexed = false;
    p.ids.push_back({std::string(graph.name(v.vertex)), v.needs});
    p.total += v.needs;
}

// HyperQueue's own variables, per pool in request order
// (crates/hyperqueue/src/worker/start/program.rs:270-325): the request
// under the pool's name and HyperQueue's normalized one (:328-338), the
// ids of indexed pools, HQ_CPUS and OMP_NUM_THREADS for cpus (:291-301).
void EnvWriter::hq_variables(std::vector<EnvVar>& vars) const {
    for (const PoolIds& p : pools_) {
        std::string request = p.request.empty() ? std::to_string(p.total) : p.request;
        std::string hq_name = hq_env_name(p.name);
        vars.push_back({"HQ_RESOURCE_REQUEST_" + p.name, request});
        if (hq_name != p.name) vars.push_back({"HQ_RESOURCE_REQUEST_" + hq_name, request});
        if (!p.indexed) continue;
        std::string ids = join_ids(p.ids);
        vars.push_back({"HQ_RESOURCE_VALUES_" + p.name, ids});
        if (hq_name != p.name) vars.push_back({"HQ_RESOURCE_VALUES_" + hq_name, ids});
        if (p.name == "cpus") {
            vars.push_back({"HQ_CPUS", ids});
            vars.push_back({"OMP_NUM_THREADS", std::to_string(p.total)});
        }
    }
}

// canary lists one id per slot it took (its checkout takes a request of
// N as N pieces of one slot, src/_canary/resource_pool/rpool.py:342-345,
// and job.py:523-526 joins their ids). Past 2^20 pieces each id is listed
// once (docs/differences.md, canary).
std::string EnvWriter::canary_ids(const PoolIds& p) const {
    if (p.total > (int64_t(1) << 20)) return join_ids(p.ids);
    std::string out;
    for (auto& [id, amount] : p.ids)
        for (int64_t k = 0; k < amount; ++k) out += (out.empty() ? "" : ",") + id;
    return out;
}

// canary: CANARY_<NAME>_IDS, the name made singular (job.py:523-526).
void EnvWriter::canary_variables(std::vector<EnvVar>& vars) const {
    for (const PoolIds& p : pools_)
        if (p.indexed && p.total > 0) vars.push_back({"CANARY_" + upper(singular(p.name)) + "_IDS", canary_ids(p)});
}

// CTest's variables (CMake Source/CTest/cmCTestRunTest.cxx:938-962); a
// `match` is one group of everything it took.
void EnvWriter::ctest_variables(std::vector<EnvVar>& vars) const {
    auto groups = ctest_;
    if (!have_allocation_ && groups.empty() && !pools_.empty()) {
        groups.emplace_back();
        for (const PoolIds& p : pools_)
            for (auto& id : p.ids) groups.back().push_back({p.name, id});
    }
    if (groups.empty()) return;  // `;` or "": no groups, no variables
    vars.push_back({"CTEST_RESOURCE_GROUP_COUNT", std::to_string(groups.size())});
    for (size_t g = 0; g < groups.size(); ++g) {
        std::vector<std::string> types;
        for (auto& [type, id] : groups[g])
            if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
        // CTest keeps a group's allocation in a std::map: types sorted.
        std::sort(types.begin(), types.end());
        std::string list;
        for (size_t i = 0; i < types.size(); ++i) list += (i ? "," : "") + types[i];
        std::string prefix = "CTEST_RESOURCE_GROUP_" + std::to_string(g);
        vars.push_back({prefix, list});
        for (auto& type : types) {
            std::string value;
            for (auto& [t, id] : groups[g])
                if (t == type)
                    value += (value.empty() ? "" : ";") + ("id:" + id.first + ",slots:" + std::to_string(id.second));
            vars.push_back({prefix + "_" + upper(type), value});
        }
    }
}

// The devices every tool names: HyperQueue for gpus/nvidia and gpus/amd
// (program.rs:302-317); canary for `gpus` of an unknown vendor
// (src/canary_nvidia/__init__.py:22-40, each id once, never over a
// CUDA_VISIBLE_DEVICES the user set) and AMD's (src/canary_amd/__init__.py:17-60).
// CTest sets none; we name a `gpus` type's ids as canary does.
void EnvWriter::gpu_variables(std::vector<EnvVar>& vars) const {
    auto user_set = [&](const std::string& name) {
        return std::any_of(templates_.begin(), templates_.end(), [&](auto& t) { return t.first == name; });
    };
    auto unique_ids = [](const PoolIds& p) {
        std::vector<std::pair<std::string, int64_t>> once;
        for (auto& id : p.ids)
            if (std::none_of(once.begin(), once.end(), [&](auto& o) { return o.first == id.first; })) once.push_back(id);
        return join_ids(once);
    };
    for (const PoolIds& p : pools_) {
        if (!p.indexed || p.ids.empty()) continue;
        bool nvidia = p.name == "gpus/nvidia" || (dialect_ != Dialect::kHq && (p.name == "gpus" || p.name == "gpu"));
        if (nvidia && !user_set("CUDA_VISIBLE_DEVICES")) {
            vars.push_back({"CUDA_VISIBLE_DEVICES", unique_ids(p)});
            if (dialect_ == Dialect::kHq) vars.push_back({"CUDA_DEVICE_ORDER", "PCI_BUS_ID"});
        } else if (p.name == "gpus/amd") {
            if (!user_set("ROCR_VISIBLE_DEVICES")) vars.push_back({"ROCR_VISIBLE_DEVICES", unique_ids(p)});
            if (!user_set("HIP_VISIBLE_DEVICES")) vars.push_back({"HIP_VISIBLE_DEVICES", unique_ids(p)});
        }
    }
}

std::vector<EnvVar> EnvWriter::variables() const {
    std::vector<EnvVar> vars;
    if (find_ || reserved_at_ > 0) return vars;
    switch (dialect_) {
        case Dialect::kHq: hq_variables(vars); break;
        case Dialect::kCanary: canary_variables(vars); break;
        case Dialect::kCtest: ctest_variables(vars); break;
    }
    gpu_variables(vars);
    // canary's `value % vars` (job.py:528-535): a placeholder of a pool
    // this job took nothing of is left empty.
    for (auto& [name, text] : templates_) {
        vars.push_back({name, expand_placeholders(text, [&](const std::string& stem) {
                            for (const PoolIds& p : pools_)
                                if (singular(p.name) == stem || p.name == stem) return canary_ids(p);
                            return std::string();
                        })});
    }
    return vars;
}

std::vector<std::string> EnvWriter::comments() const {
    std::vector<std::string> lines;
    if (find_) return lines;
    if (!worker_.empty()) lines.push_back("# worker " + worker_);
    for (const std::string& w : matched_workers_) lines.push_back("# worker " + w);
    if (reserved_at_ > 0) lines.push_back("# reserved at " + std::to_string(reserved_at_));
    return lines;
}

Status EnvWriter::flush(std::ostream& out) {
    for (const std::string& line : comments()) out << line << "\n";
    for (const EnvVar& v : variables()) {
        if (export_) {
            if (shell_name(v.name)) out << "export " << v.name << "=" << shell_quote(v.value) << "\n";
        } else {
            out << (plain_word(v.name) ? v.name : shell_quote(v.name)) << "=" << shell_quote(v.value) << "\n";
        }
    }
    reset();
    return ok_status();
}

void EnvWriter::reset() {
    have_allocation_ = false;
    find_ = false;
    reserved_at_ = 0;
    dialect_ = match_dialect_;
    worker_.clear();
    matched_workers_.clear();
    pools_.clear();
    ctest_.clear();
    templates_.clear();
}

Status check_placeholders(const std::string& name, const std::string& text,
                          const std::function<bool(const std::string&)>& is_pool) {
    for (size_t at = text.find("%("); at != std::string::npos; at = text.find("%(", at + 2)) {
        size_t close = text.find(')', at);
        std::string shown = text.substr(at, close == std::string::npos ? std::string::npos : close + 2 - at);
        auto bad = [&](const std::string& why) {
            return make_error(Errc::kInvalid, "--env " + name + ": placeholder " + shown + ": " + why);
        };
        if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != 's')
            return bad("expected %(<name>_ids)s");
        std::string key = text.substr(at + 2, close - at - 2);
        const std::string suffix = "_ids";
        if (key.size() <= suffix.size() || key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0)
            return bad("unknown placeholder; canary's are %(<name>_ids)s, such as %(gpu_ids)s");
        std::string stem = key.substr(0, key.size() - suffix.size());
        if (!is_pool(stem) && !is_pool(stem + "s")) return bad("unknown placeholder: no pool " + stem + " or " + stem + "s");
    }
    return ok_status();
}

}  // namespace rq::pools
