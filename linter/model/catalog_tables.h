// The instance catalog's tables as compiled data: rules/data/accelerators.json,
// instances.json and offered.json turned into constant arrays at build time by
// cmake/catalog-tables.cmake, so no run parses them. linter/model/catalog.cc
// is their only reader.
#ifndef SAGELINT_LINTER_MODEL_CATALOG_TABLES_H_
#define SAGELINT_LINTER_MODEL_CATALOG_TABLES_H_

#include <cstddef>
#include <span>
#include <string_view>

namespace sagelint::catalog_tables {

// One row of accelerators.json `types` (its key first).
struct AcceleratorData {
  std::string_view instance_type;
  std::string_view accelerator;
  int count;
  double memory_per_accelerator_gib;
  int vcpu;
  double memory_gib;
  std::string_view memory_basis;
  std::string_view source;
};

// One size of a family in instances.json.
struct SizeData {
  std::string_view size;  // "xlarge"
  int vcpu;
  double memory_gib;
  int accelerators;  // -1: not given
};

// One family of instances.json, with the defaults of absent fields filled in.
struct FamilyData {
  std::string_view name;
  std::string_view accelerator;  // "none", "gpu", …
  bool training_class;
  bool inference_class;
  bool previous_generation;
  std::string_view successors;  // space-separated, empty for none
  std::string_view storage;     // "ebs" or "nvme"
  size_t first_size;
  size_t size_count;
};

std::span<const AcceleratorData> Accelerators();
std::span<const FamilyData> Families();
std::span<const SizeData> Sizes(const FamilyData& f);
// The types of one kind of offered.json `kinds`, by OfferKind order
// (notebook_instance, training, processing, transform, endpoint_variant,
// studio_app, hyperpod_cluster), as listed there.
std::span<const std::string_view> OfferedTypes(size_t kind);
std::string_view OfferedSource();

}  // namespace sagelint::catalog_tables

#endif  // SAGELINT_LINTER_MODEL_CATALOG_TABLES_H_
