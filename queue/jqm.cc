#include "queue/jqm.h"

#include "queue/jqm_pools.h"
#include "queue/queue_set.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>

namespace rq::queue {

std::string ResourceManager::env_name() const {
    std::string k = key;
    for (char& c : k) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return "JQM_RM_DISCRETE_" + k + "_ITEMS";
}

const JqmQueue* JqmConfig::find(const std::string& name) const {
    for (const JqmQueue& q : queues)
        if (q.name == name) return &q;
    return nullptr;
}

JqmConfig default_jqm_config() {
    JqmConfig c;
    JqmQueue q;
    q.name = "default";
    ResourceManager thread;
    thread.key = "thread";
    q.managers.push_back(thread);
    c.queues.push_back(q);
    return c;
}

Status add_manager(JqmQueue& q, ResourceManager m) {
    if (m.kind == ResourceManager::kQuantity && m.quantity < 0)
        return make_error(Errc::kInvalid, m.key + ": quantity must be >= 0");
    if (m.default_consumption < 0) return make_error(Errc::kInvalid, m.key + ": consumption must be >= 0");
    for (auto& other : q.managers)
        if (other.key == m.key) return make_error(Errc::kInvalid, "manager key '" + m.key + "' twice");
    q.managers.push_back(std::move(m));
    return ok_status();
}

Result<JqmConfig> parse_jqm_config(const std::string& path, const std::string& text) {
    JqmConfig config;
    try {
        YAML::Node root = YAML::Load(text);
        if (!root.IsMap() || !root["queues"] || !root["queues"].IsSequence())
            return make_error(Errc::kInvalid, path + ": needs a 'queues' list");
        if (root["poll_interval"]) config.poll_interval = root["poll_interval"].as<int64_t>();
        if (config.poll_interval < 1) return make_error(Errc::kInvalid, path + ": poll_interval must be >= 1");
        for (const YAML::Node& qn : root["queues"]) {
            JqmQueue q;
            if (!qn["name"]) return make_error(Errc::kInvalid, path + ": a queue needs a 'name'");
            q.name = qn["name"].as<std::string>();
            if (config.find(q.name)) return make_error(Errc::kInvalid, path + ": queue '" + q.name + "' twice");
            std::string at = path + ": queue " + q.name + ": ";
            if (qn["managers"])
                for (const YAML::Node& mn : qn["managers"]) {
                    ResourceManager m;
                    std::string type = mn["type"] ? mn["type"].as<std::string>() : "";
                    m.key = mn["key"] ? mn["key"].as<std::string>() : type;
                    if (type == "quantity") {
                        m.kind = ResourceManager::kQuantity;
                        if (mn["quantity"]) m.quantity = mn["quantity"].as<int64_t>();
                    } else if (type == "discrete") {
                        m.kind = ResourceManager::kDiscrete;
                        m.default_consumption = 0;
                        if (mn["items"]) {
                            for (const YAML::Node& i : mn["items"]) m.items.push_back(i.as<std::string>());
                        } else {
                            for (int i = 1; i <= 10; ++i) m.items.push_back(std::string(i < 10 ? "item0" : "item") + std::to_string(i));
                        }
                    } else if (type == "highlander") {
                        m.kind = ResourceManager::kHighlander;
                    } else {
                        return make_error(Errc::kInvalid, at + "unknown manager type '" + type +
                                                              "' (quantity, discrete, highlander)");
                    }
                    if (mn["consumption"]) m.default_consumption = mn["consumption"].as<int64_t>();
                    Status added = add_manager(q, std::move(m));
                    if (!added) return make_error(Errc::kInvalid, at + added.message());
                }
            Status policy = parse_queue_policy_fields(qn, q);
            if (!policy) return make_error(Errc::kInvalid, at + policy.message());
            // Build the managers' pools once to report their errors now; the
            // simulator builds its own on first use.
            auto pools = JqmPools::build(q);
            if (!pools) return make_error(Errc::kInvalid, path + ": " + pools.message());
            config.queues.push_back(std::move(q));
        }
        if (config.queues.empty()) return make_error(Errc::kInvalid, path + ": no queue");
    } catch (const YAML::Exception& e) {
        return make_error(Errc::kInvalid, path + ": " + e.what());
    }
    return config;
}

}  // namespace rq::queue
