#include "linter/model/catalog.h"

#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "linter/base/embedded.h"

namespace sagelint {
namespace {

struct Size {
  int vcpu = 0;
  double memory_gib = 0;
  std::optional<int> accelerators;
  std::string accelerator_name;
  std::optional<double> accelerator_memory_gib;
};

const std::vector<AcceleratorRow>& Rows() {
  static const auto* rows = [] {
    auto* v = new std::vector<AcceleratorRow>();
    nlohmann::json doc = nlohmann::json::parse(Embedded("rules/data/accelerators.json"));
    for (const auto& [type, r] : doc.at("types").items()) {
      v->push_back(AcceleratorRow{type, r.at("accelerator").get<std::string>(), r.at("count").get<int>(),
                                  r.at("memory_per_accelerator_gib").get<double>(), r.at("vcpu").get<int>(),
                                  r.at("memory_gib").get<double>(), r.at("memory_basis").get<std::string>(),
                                  r.at("source").get<std::string>()});
    }
    std::sort(v->begin(), v->end(),
              [](const AcceleratorRow& a, const AcceleratorRow& b) { return a.instance_type < b.instance_type; });
    return v;
  }();
  return *rows;
}

struct Family {
  InstanceInfo info;
  std::map<std::string, Size, std::less<>> sizes;  // empty: sizes not tabulated
};

const std::map<std::string, Family, std::less<>>& Families() {
  static const auto* families = [] {
    auto* m = new std::map<std::string, Family, std::less<>>();
    nlohmann::json doc = nlohmann::json::parse(Embedded("rules/data/instances.json"));
    for (const auto& [name, f] : doc.at("families").items()) {
      InstanceInfo info;
      info.family = name;
      std::string acc = f.value("accelerator", "none");
      if (acc == "gpu")
        info.accelerator = Accelerator::kGpu;
      else if (acc == "inferentia")
        info.accelerator = Accelerator::kInferentia;
      else if (acc == "trainium")
        info.accelerator = Accelerator::kTrainium;
      else if (acc == "gaudi")
        info.accelerator = Accelerator::kGaudi;
      else if (acc == "elastic_inference")
        info.accelerator = Accelerator::kElasticInference;
      info.training_class = f.value("training_class", false);
      info.inference_class = f.value("inference_class", false);
      info.previous_generation = f.value("previous_generation", false);
      if (f.contains("successor")) {
        const auto& succ = f.at("successor");
        if (succ.is_string()) {
          info.successors.push_back(succ.get<std::string>());
        } else {
          for (const auto& s : succ) info.successors.push_back(s.get<std::string>());
        }
      }
      info.nvme = f.value("storage", "ebs") == "nvme";
      Family& fam = (*m)[name];
      fam.info = std::move(info);
      if (f.contains("sizes")) {
        for (const auto& [size, z] : f.at("sizes").items()) {
          Size& sz = fam.sizes[size];
          sz.vcpu = z.at("vcpu").get<int>();
          sz.memory_gib = z.at("memory_gib").get<double>();
          if (z.contains("accelerators")) sz.accelerators = z.at("accelerators").get<int>();
        }
      }
    }
    // Accelerated types: their sizes are the accelerator table's rows.
    for (const AcceleratorRow& r : Rows()) {
      std::string family = InstanceFamily(r.instance_type);
      auto it = m->find(family);
      if (it == m->end()) continue;  // the catalog test requires every row's family
      Size& sz = it->second.sizes[r.instance_type.substr(3 + family.size() + 1)];
      sz.vcpu = r.vcpu;
      sz.memory_gib = r.memory_gib;
      sz.accelerators = r.count;
      sz.accelerator_name = r.accelerator;
      sz.accelerator_memory_gib = r.memory_per_accelerator_gib;
    }
    return m;
  }();
  return *families;
}

struct Offered {
  std::string source;
  std::array<std::vector<std::string>, 7> types;  // by OfferKind, sorted
  std::set<std::string, std::less<>> any;         // offered for some kind
};

constexpr std::array<std::string_view, 7> kOfferKeys = {
    "notebook_instance", "training", "processing", "transform", "endpoint_variant", "studio_app", "hyperpod_cluster"};

const Offered& OfferedData() {
  static const auto* offered = [] {
    auto* o = new Offered();
    nlohmann::json doc = nlohmann::json::parse(Embedded("rules/data/offered.json"));
    o->source = doc.at("source").get<std::string>();
    for (size_t k = 0; k < kOfferKeys.size(); ++k) {
      for (const auto& t : doc.at("kinds").at(std::string(kOfferKeys[k])).at("types")) {
        o->types[k].push_back(t.get<std::string>());
        o->any.insert(t.get<std::string>());
      }
      std::sort(o->types[k].begin(), o->types[k].end());
    }
    return o;
  }();
  return *offered;
}

}  // namespace

std::string_view AcceleratorName(Accelerator a) {
  switch (a) {
    case Accelerator::kNone:
      return "none";
    case Accelerator::kGpu:
      return "gpu";
    case Accelerator::kInferentia:
      return "inferentia";
    case Accelerator::kTrainium:
      return "trainium";
    case Accelerator::kGaudi:
      return "gaudi";
    case Accelerator::kElasticInference:
      return "elastic_inference";
  }
  return "none";
}

std::string AcceleratorDisplayName(Accelerator a) {
  switch (a) {
    case Accelerator::kGpu:
      return "NVIDIA GPU";
    case Accelerator::kInferentia:
      return "AWS Inferentia";
    case Accelerator::kTrainium:
      return "AWS Trainium";
    case Accelerator::kGaudi:
      return "Intel Gaudi";
    case Accelerator::kElasticInference:
      return "Elastic Inference";
    case Accelerator::kNone:
      return "no";
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

namespace {

// The catalog entry of the type's family and the type's size text.
const Family* FindFamily(std::string_view instance_type, std::string_view* size) {
  std::string family = InstanceFamily(instance_type);
  if (family.empty()) return nullptr;
  const auto& families = Families();
  auto it = families.find(family);
  if (it == families.end()) return nullptr;
  *size = instance_type.substr(3 + family.size() + 1);
  return &it->second;
}

}  // namespace

std::optional<InstanceInfo> LookupInstance(std::string_view instance_type) {
  std::string_view size;
  const Family* fam = FindFamily(instance_type, &size);
  if (fam == nullptr) return std::nullopt;
  InstanceInfo info = fam->info;
  auto it = fam->sizes.find(size);
  if (it != fam->sizes.end()) {
    info.vcpu = it->second.vcpu;
    info.memory_gib = it->second.memory_gib;
    info.accelerator_count = it->second.accelerators;
    info.accelerator_name = it->second.accelerator_name;
    info.accelerator_memory_gib = it->second.accelerator_memory_gib;
    if (!info.accelerator_count && info.accelerator == Accelerator::kNone) info.accelerator_count = 0;
  }
  return info;
}

const std::vector<AcceleratorRow>& AcceleratorTable() { return Rows(); }

std::vector<InstanceInfo> CatalogFamilies() {
  std::vector<InstanceInfo> out;
  for (const auto& [name, fam] : Families()) out.push_back(fam.info);
  return out;
}

bool IsKnownInstanceType(std::string_view instance_type) {
  std::string_view size;
  const Family* fam = FindFamily(instance_type, &size);
  if (fam == nullptr) return false;
  if (fam->sizes.contains(size) || OfferedData().any.contains(instance_type)) return true;
  // A family without a size table is known in every size only when the API
  // lists none of its sizes; otherwise the API's lists say which sizes exist.
  if (!fam->sizes.empty()) return false;
  std::string prefix = "ml." + fam->info.family + ".";
  auto it = OfferedData().any.lower_bound(prefix);
  return it == OfferedData().any.end() || it->rfind(prefix, 0) != 0;
}

bool IsLocalMode(std::string_view t) { return t == "local" || t == "local_gpu"; }

std::optional<OfferKind> OfferKindFor(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kNotebookInstance:
      return OfferKind::kNotebook;
    case WorkloadKind::kTrainingJob:
    case WorkloadKind::kTuningJob:
      return OfferKind::kTraining;
    case WorkloadKind::kProcessingJob:
      return OfferKind::kProcessing;
    case WorkloadKind::kTransformJob:
      return OfferKind::kTransform;
    case WorkloadKind::kEndpointVariant:
      return OfferKind::kEndpoint;
    case WorkloadKind::kStudioDomain:
    case WorkloadKind::kStudioUserProfile:
    case WorkloadKind::kStudioSpace:
    case WorkloadKind::kStudioApp:
      return OfferKind::kStudioApp;
    case WorkloadKind::kHyperPodCluster:
      return OfferKind::kCluster;
    case WorkloadKind::kInferenceComponent:
    case WorkloadKind::kScalableTarget:
    case WorkloadKind::kLifecycleScript:
    case WorkloadKind::kIamStatement:
      return std::nullopt;
  }
  return std::nullopt;
}

std::string_view OfferKindDescription(OfferKind k) {
  switch (k) {
    case OfferKind::kNotebook:
      return "notebook instances";
    case OfferKind::kTraining:
      return "training jobs";
    case OfferKind::kProcessing:
      return "processing jobs";
    case OfferKind::kTransform:
      return "batch transform jobs";
    case OfferKind::kEndpoint:
      return "endpoint variants";
    case OfferKind::kStudioApp:
      return "Studio apps";
    case OfferKind::kCluster:
      return "HyperPod clusters";
  }
  return "";
}

std::string_view OfferKindAction(OfferKind k) {
  switch (k) {
    case OfferKind::kNotebook:
      return "CreateNotebookInstance";
    case OfferKind::kTraining:
      return "CreateTrainingJob";
    case OfferKind::kProcessing:
      return "CreateProcessingJob";
    case OfferKind::kTransform:
      return "CreateTransformJob";
    case OfferKind::kEndpoint:
      return "CreateEndpointConfig";
    case OfferKind::kStudioApp:
      return "CreateApp";
    case OfferKind::kCluster:
      return "CreateCluster";
  }
  return "";
}

const std::vector<std::string>& OfferedTypes(OfferKind k) { return OfferedData().types[static_cast<size_t>(k)]; }

bool IsOffered(std::string_view instance_type, OfferKind k) {
  const auto& types = OfferedTypes(k);
  return std::binary_search(types.begin(), types.end(), instance_type, std::less<>());
}

const std::string& OfferedSource() { return OfferedData().source; }

}  // namespace sagelint
