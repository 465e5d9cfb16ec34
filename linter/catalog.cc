#include "linter/catalog.h"

#include <map>
#include <nlohmann/json.hpp>

#include "linter/embedded.h"

namespace sagelint {
namespace {

const std::map<std::string, InstanceInfo, std::less<>>& Families() {
  static const auto* families = [] {
    auto* m = new std::map<std::string, InstanceInfo, std::less<>>();
    nlohmann::json doc = nlohmann::json::parse(Embedded("rules/data/instances.json"));
    for (const auto& [name, f] : doc.at("families").items()) {
      InstanceInfo info;
      info.family = name;
      std::string acc = f.value("accelerator", "none");
      if (acc == "gpu") info.accelerator = Accelerator::kGpu;
      else if (acc == "inferentia") info.accelerator = Accelerator::kInferentia;
      else if (acc == "trainium") info.accelerator = Accelerator::kTrainium;
      else if (acc == "gaudi") info.accelerator = Accelerator::kGaudi;
      else if (acc == "elastic_inference") info.accelerator = Accelerator::kElasticInference;
      info.training_class = f.value("training_class", false);
      info.previous_generation = f.value("previous_generation", false);
      info.successor = f.value("successor", "");
      info.nvme = f.value("storage", "ebs") == "nvme";
      (*m)[name] = std::move(info);
    }
    return m;
  }();
  return *families;
}

}  // namespace

std::string_view AcceleratorName(Accelerator a) {
  switch (a) {
    case Accelerator::kNone: return "none";
    case Accelerator::kGpu: return "gpu";
    case Accelerator::kInferentia: return "inferentia";
    case Accelerator::kTrainium: return "trainium";
    case Accelerator::kGaudi: return "gaudi";
    case Accelerator::kElasticInference: return "elastic_inference";
  }
  return "none";
}

std::string AcceleratorDisplayName(Accelerator a) {
  switch (a) {
    case Accelerator::kGpu: return "NVIDIA GPU";
    case Accelerator::kInferentia: return "AWS Inferentia";
    case Accelerator::kTrainium: return "AWS Trainium";
    case Accelerator::kGaudi: return "Intel Gaudi";
    case Accelerator::kElasticInference: return "Elastic Inference";
    case Accelerator::kNone: return "no";
  }
  return "no";
}

std::string InstanceFamily(std::string_view t) {
  if (t.substr(0, 3) != "ml.") return {};
  t.remove_prefix(3);
  size_t dot = t.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == t.size()) return {};
  return std::string(t.substr(0, dot));
}

std::optional<InstanceInfo> LookupInstance(std::string_view instance_type) {
  std::string family = InstanceFamily(instance_type);
  if (family.empty()) return std::nullopt;
  const auto& families = Families();
  auto it = families.find(family);
  if (it == families.end()) return std::nullopt;
  return it->second;
}

bool IsKnownInstanceType(std::string_view instance_type) { return LookupInstance(instance_type).has_value(); }

bool IsLocalMode(std::string_view t) { return t == "local" || t == "local_gpu"; }

}  // namespace sagelint
