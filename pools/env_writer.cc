#include "pools/env_writer.h"

#include <cctype>
#include <algorithm>
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

std::string substitute(std::string text, const std::string& key, const std::string& value) {
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
        text.replace(at, key.size(), value);
    return text;
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

void EnvWriter::set_allocation(const Allocation& a, const ResourceGraph& graph) {
    reset();
    have_allocation_ = true;
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

void EnvWriter::vertex(const ResourceGraph& graph, const VertexEmission& v) {
    if (have_allocation_ || !v.exclusive) return;
    PoolIds& p = pool(graph.type_name(v.vertex));
    if (graph.name(v.vertex) == graph.type_name(v.vertex)) p.indexed = false;
    p.ids.push_back({std::string(graph.name(v.vertex)), v.needs});
    p.total += v.needs;
}

std::vector<EnvVar> EnvWriter::variables() const {
    std::vector<EnvVar> vars;
    for (const PoolIds& p : pools_) {
        std::string request = p.request.empty() ? std::to_string(p.total) : p.request;
        // The seed's name, then HyperQueue's current one where it differs
        // (crates/hyperqueue/src/worker/start/program.rs:281-287, 328-338).
        std::string hq_name = hq_env_name(p.name);
        vars.push_back({"HQ_RESOURCE_REQUEST_" + p.name, request});
        if (hq_name != p.name) vars.push_back({"HQ_RESOURCE_REQUEST_" + hq_name, request});
        if (!p.indexed) continue;
        std::string ids = join_ids(p.ids);
        vars.push_back({"HQ_RESOURCE_VALUES_" + p.name, ids});
        if (hq_name != p.name) vars.push_back({"HQ_RESOURCE_VALUES_" + hq_name, ids});
        if (p.name == "gpus/nvidia") {
            vars.push_back({"CUDA_VISIBLE_DEVICES", ids});
            vars.push_back({"CUDA_DEVICE_ORDER", "PCI_BUS_ID"});
        } else if (p.name == "gpus/amd") {
            vars.push_back({"ROCR_VISIBLE_DEVICES", ids});
            vars.push_back({"HIP_VISIBLE_DEVICES", ids});
        }
        vars.push_back({"CANARY_" + upper(singular(p.name)) + "_IDS", ids});
    }
    if (!ctest_.empty()) {
        vars.push_back({"CTEST_RESOURCE_GROUP_COUNT", std::to_string(ctest_.size())});
        for (size_t g = 0; g < ctest_.size(); ++g) {
            std::vector<std::string> types;
            for (auto& [type, id] : ctest_[g])
                if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
            // CTest keeps a group's allocation in a std::map: types sorted
            // (CMake Source/CTest/cmCTestRunTest.cxx:938-962).
            std::sort(types.begin(), types.end());
            std::string list;
            for (size_t i = 0; i < types.size(); ++i) list += (i ? "," : "") + types[i];
            std::string prefix = "CTEST_RESOURCE_GROUP_" + std::to_string(g);
            vars.push_back({prefix, list});
            for (auto& type : types) {
                std::string value;
                for (auto& [t, id] : ctest_[g])
                    if (t == type)
                        value += (value.empty() ? "" : ";") + ("id:" + id.first + ",slots:" + std::to_string(id.second));
                vars.push_back({prefix + "_" + upper(type), value});
            }
        }
    }
    for (auto& [name, text] : templates_) {
        std::string value = text;
        for (const PoolIds& p : pools_) {
            std::string ids = join_ids(p.ids);
            value = substitute(value, "%(" + singular(p.name) + "_ids)s", ids);
            value = substitute(value, "%(" + p.name + "_ids)s", ids);
        }
        vars.push_back({name, value});
    }
    return vars;
}

Status EnvWriter::flush(std::ostream& out) {
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
    pools_.clear();
    ctest_.clear();
    templates_.clear();
}

}  // namespace rq::pools
