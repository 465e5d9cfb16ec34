// The pool a scan holds its findings in: a finding comes back exactly as it
// went in, texts are held once, and packed findings compare as findings do.
#include "linter/engine/finding_pool.h"

#include <string>
#include <thread>
#include <vector>

#include "tests/catch.h"
#include "tests/field_count.h"

using namespace sagelint;
using sagelint::testing::FieldCount;

namespace {

Finding Full() {
  Finding f;
  f.rule = "SM401";
  f.name = "training-without-spot";
  f.severity = Severity::kError;
  f.path = "nb/train.ipynb";
  f.root_path = "nb/train.ipynb";
  f.range = {{12, 5}, {12, 40}, 3, 2};
  f.resource_range = {{10, 1}, {14, 2}, 3, 1};
  f.resource = "Estimator 'est'";
  f.message = "runs on demand";
  f.suggestion = "set use_spot_instances=True";
  f.condition = "when condition UseGpu is true";
  f.value = "ml.p3.2xlarge";
  // Strings holding the pool's own separators must survive too.
  f.iam = IamHint{"sagemaker:InstanceTypes", {"sagemaker:CreateTrainingJob", "a:1:b", std::string("x\0y", 3), ""}};
  f.cost = CostEstimate{"ml.p3.2xlarge", 2, 7.65, 5584.5, 5.1, "on-demand price, us-east-1", "AWS data", "2026-07-03"};
  f.fingerprint = "0123456789abcdef";
  f.format = Format::kNotebook;
  f.fix = Fix{Applicability::kUnsafe,
              "replace ml.p3.2xlarge with ml.g4dn.xlarge",
              {{FixChange::Op::kInsert, "nb/train.ipynb", {{12, 5}, {12, 40}, 3, 2}, "max_wait_seconds", "t", "7200"}},
              {{"nb/train.ipynb", {{23, 40}, {23, 48}, 0, 0}, "\"ml.g4dn.xlarge\"\n\t"}}};
  f.member_of = ConstructMember{ConstructMember::Kind::kInstance, "aws_sagemaker_notebook_instance.lab", "\"ana\"", 3};
  f.fix_unavailable = "the value comes from parameter Type default";
  return f;
}

}  // namespace

TEST_CASE("the packed form carries every field of a finding and of its cost", "[engine]") {
  // A field added to Finding or CostEstimate must be carried by Pack/Unpack
  // (and set in Full() above) before this passes.
  CHECK(FieldCount<Finding>() == kPackedFindingFields);
  CHECK(FieldCount<CostEstimate>() == kPackedCostFields);
  // Each field of Full() differs from a default finding's, so a field that
  // Pack or Unpack drops shows as a difference.
  FindingPool pool;
  Finding full = Full();
  Finding back = FindingPool::Unpack(pool.Pack(full));
  CHECK(back == full);
  CHECK(back.cost->price_source == "AWS data");
  CHECK(back.cost->price_date == "2026-07-03");
  CHECK(back.cost->monthly_usd == 5584.5);
}

TEST_CASE("a packed finding unpacks to the same finding", "[engine]") {
  FindingPool pool;
  Finding full = Full();
  CHECK(FindingPool::Unpack(pool.Pack(full)) == full);

  Finding bare;  // every text empty, no IAM hint, no cost
  CHECK(FindingPool::Unpack(pool.Pack(bare)) == bare);

  Finding empty_hint = bare;
  empty_hint.iam = IamHint{};
  empty_hint.cost = CostEstimate{};
  Finding back = FindingPool::Unpack(pool.Pack(empty_hint));
  CHECK(back == empty_hint);
  CHECK(back.iam.has_value());
  CHECK(back.cost.has_value());
}

TEST_CASE("packed findings are equal exactly when the findings are", "[engine]") {
  FindingPool pool;
  Finding a = Full();
  Finding b = Full();
  CHECK(pool.Pack(a) == pool.Pack(b));
  // Equal texts share one copy.
  CHECK(pool.Pack(a).suggestion == pool.Pack(b).suggestion);

  b.message += ".";
  CHECK_FALSE(pool.Pack(a) == pool.Pack(b));
  b = Full();
  b.iam->actions.pop_back();
  CHECK_FALSE(pool.Pack(a) == pool.Pack(b));
  b = Full();
  b.cost->monthly_usd = 1.0;
  CHECK_FALSE(pool.Pack(a) == pool.Pack(b));
  b = Full();
  b.range.cell_line = 9;
  CHECK_FALSE(pool.Pack(a) == pool.Pack(b));
}

TEST_CASE("findings are packed from several threads at once", "[engine]") {
  FindingPool pool;
  std::vector<std::vector<PackedFinding>> packed(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < packed.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        Finding f = Full();
        f.message = "message " + std::to_string(i);
        packed[t].push_back(pool.Pack(f));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (size_t t = 1; t < packed.size(); ++t) CHECK(packed[t] == packed[0]);
  CHECK(FindingPool::Unpack(packed[3][499]).message == "message 499");
}
