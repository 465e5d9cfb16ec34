#include "linter/model/catalog.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "linter/model/catalog_tables.h"
#include "linter/model/workload_kinds.h"

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
    for (const catalog_tables::AcceleratorData& r : catalog_tables::Accelerators()) {
      v->push_back(AcceleratorRow{std::string(r.instance_type), std::string(r.accelerator), r.count,
                                  r.memory_per_accelerator_gib, r.vcpu, r.memory_gib, std::string(r.memory_basis),
                                  std::string(r.source)});
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
    for (const catalog_tables::FamilyData& f : catalog_tables::Families()) {
      InstanceInfo info;
      info.family = f.name;
      std::string_view acc = f.accelerator;
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
      info.training_class = f.training_class;
      info.inference_class = f.inference_class;
      info.previous_generation = f.previous_generation;
      for (std::string_view rest = f.successors; !rest.empty();) {
        size_t space = rest.find(' ');
        info.successors.emplace_back(rest.substr(0, space));
        rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
      }
      info.nvme = f.storage == "nvme";
      Family& fam = (*m)[std::string(f.name)];
      fam.info = std::move(info);
      for (const catalog_tables::SizeData& z : catalog_tables::Sizes(f)) {
        Size& sz = fam.sizes[std::string(z.size)];
        sz.vcpu = z.vcpu;
        sz.memory_gib = z.memory_gib;
        if (z.accelerators >= 0) sz.accelerators = z.accelerators;
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

// The kinds of offered.json, in OfferKind order (as cmake/catalog-tables.cmake writes them).
constexpr size_t kOfferKinds = 7;

const Offered& OfferedData() {
  static const auto* offered = [] {
    auto* o = new Offered();
    o->source = catalog_tables::OfferedSource();
    for (size_t k = 0; k < kOfferKinds; ++k) {
      for (std::string_view t : catalog_tables::OfferedTypes(k)) {
        o->types[k].emplace_back(t);
        o->any.emplace(t);
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

std::optional<OfferKind> OfferKindFor(WorkloadKind kind) { return TraitsOf(kind).offer; }

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
