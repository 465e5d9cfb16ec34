#include "linter/cost/datasets.h"
#include "rules/checks_cost.h"
#include "tests/catch.h"
#include "tests/rules/capture_sink.h"

using namespace sagelint;

namespace {

constexpr const char* kTail =
    ": File mode copies the whole dataset to the training volume before the script starts, and the instances "
    "bill while it downloads";

Channel MakeChannel(std::string name, std::string uri) {
  Channel ch;
  ch.name = std::move(name);
  ch.s3_uri = Val::Known(std::move(uri));
  ch.range.begin = {7, 3};
  return ch;
}

Workload Job() {
  Workload w;
  w.kind = WorkloadKind::kTrainingJob;
  w.format = Format::kPython;
  w.label = "PyTorch estimator 'est'";
  w.instance_type = Val::Known("ml.p3.2xlarge");
  w.channels.push_back(MakeChannel("train", "s3://ml-data/imagenet/train/"));
  return w;
}

struct Fixture {
  DatasetSizes sizes;
  RuleContext ctx;
  testing::CaptureSink sink;
  Fixture() {
    ctx.options["threshold_gb"] = 50;
    ctx.datasets = &sizes;
  }
  void Run(const Workload& w) { rules::CheckFileModeLargeDataset(w, ctx, sink); }
};

}  // namespace

TEST_CASE("SM301 fires on a default File-mode channel with a configured large dataset", "[SM301]") {
  Fixture f;
  f.sizes.AddPrefix("s3://ml-data/imagenet/", 1200, "datasets: in .sagelint.yaml");
  Workload w = Job();
  w.instance_count = Val::Known("2");
  f.Run(w);
  REQUIRE(f.sink.reports.size() == 1);
  const Report& r = f.sink.reports[0];
  CHECK(r.message == std::string("PyTorch estimator 'est': channel 'train' reads 1.2 TB in File mode (size from "
                                 "datasets: in .sagelint.yaml)") +
                         kTail);
  CHECK(r.suggestion ==
        "set the channel's input mode to FastFile, which streams from S3 behind a file interface; for many small "
        "files use FSx for Lustre (a file system input)");
  CHECK(r.at.begin.line == 7);
  CHECK(r.condition.empty());
  CHECK_FALSE(r.iam);
  REQUIRE(r.cost);
  CHECK(r.cost->instance_type == "ml.p3.2xlarge");
  CHECK(r.cost->count == 2);
  CHECK_FALSE(r.cost->always_on);
}

TEST_CASE("SM301 uses listings and annotations, says which, and never infers a size from the volume", "[SM301]") {
  Fixture f;
  f.sizes.AddObject("s3://ml-data/imagenet/train/a.tar", 60e9, "ls.txt");
  Workload w = Job();
  w.channels.push_back(MakeChannel("val", "s3://ml-data/imagenet/val/"));
  w.channels.back().dataset_size_gb = Val::Known("2000");
  w.channels.push_back(MakeChannel("extra", "s3://ml-data/extra/"));
  w.channels.push_back(MakeChannel("more", "s3://ml-data/more/"));
  w.volume_gb = Val::Known("500");
  f.Run(w);
  REQUIRE(f.sink.reports.size() == 2);
  CHECK(f.sink.reports[0].message ==
        std::string("PyTorch estimator 'est': channel 'train' reads 60 GB in File mode (size from S3 listing ls.txt: "
                    "1 object under s3://ml-data/imagenet/train/)") +
            kTail);
  CHECK(f.sink.reports[1].message ==
        std::string("PyTorch estimator 'est': channel 'val' reads 2 TB in File mode (size from the "
                    "sagelint:dataset-size annotation)") +
            kTail);
  // The 500 GB volume holds weights and checkpoints: 'extra' and 'more' stay silent.
}

TEST_CASE("SM301 skips file system channels and sums every instance group in the cost", "[SM301]") {
  Fixture f;
  f.sizes.AddPrefix("s3://ml-data/", 100, "--dataset-size");
  Workload w = Job();
  w.channels[0].file_system = true;
  f.Run(w);
  CHECK(f.sink.reports.empty());
  w.channels[0].file_system = false;
  w.instance_type = Val::Absent();
  w.instance_count = Val::Absent();
  w.instance_groups.push_back({Val::Known("gpu"), Val::Known("ml.p4d.24xlarge"), Val::Known("2"), {}});
  w.instance_groups.push_back({Val::Known("cpu"), Val::Known("ml.c5.xlarge"), Val::Known("4"), {}});
  f.Run(w);
  REQUIRE(f.sink.reports.size() == 1);
  REQUIRE(f.sink.reports[0].cost);
  CHECK(f.sink.reports[0].cost->instance_type == "ml.p4d.24xlarge");
  CHECK(f.sink.reports[0].cost->count == 2);
  REQUIRE(f.sink.reports[0].cost->other_groups.size() == 1);
  CHECK(f.sink.reports[0].cost->other_groups[0] == std::pair<std::string, double>{"ml.c5.xlarge", 4});
}

TEST_CASE("SM301 effective mode: channel, then job, then File", "[SM301]") {
  Fixture f;
  f.sizes.AddPrefix("s3://ml-data/", 100, "--dataset-size");
  Workload w = Job();
  w.input_mode = Val::Known("FastFile");
  f.Run(w);
  CHECK(f.sink.reports.empty());

  w.channels[0].input_mode = Val::Known("File", SourceRange{{9, 20}, {9, 26}});
  f.Run(w);
  REQUIRE(f.sink.reports.size() == 1);
  CHECK(f.sink.reports[0].at.begin.line == 9);

  f.sink.reports.clear();
  w.input_mode = Val::Known("File");
  w.channels[0].input_mode = Val::Known("Pipe");
  f.Run(w);
  CHECK(f.sink.reports.empty());

  w.channels[0].input_mode = Val::Unknown();
  f.Run(w);
  CHECK(f.sink.reports.empty());
}

TEST_CASE("SM301 conditional input mode reports the File branch's condition", "[SM301]") {
  Fixture f;
  f.sizes.AddPrefix("s3://ml-data/", 100, "--dataset-size");
  Workload w = Job();
  Val fast = Val::Known("FastFile");
  fast.condition = "condition Stream is true";
  Val absent = Val::Absent();
  absent.condition = "condition Stream is false";
  w.channels[0].input_mode = Val::OneOf({fast, absent});
  f.Run(w);
  REQUIRE(f.sink.reports.size() == 1);
  CHECK(f.sink.reports[0].condition == "condition Stream is false");
}

TEST_CASE("SM301 stays quiet below the threshold, on unknowns and on file systems", "[SM301]") {
  Fixture f;
  f.sizes.AddPrefix("s3://ml-data/imagenet/", 49, "--dataset-size");
  Workload w = Job();
  w.volume_gb = Val::Known("800");  // a known small dataset is not overruled by the volume
  f.Run(w);
  CHECK(f.sink.reports.empty());

  Workload unknown = Job();
  unknown.channels[0].s3_uri = Val::Unknown();
  unknown.volume_gb = Val::Known("30");
  f.Run(unknown);
  CHECK(f.sink.reports.empty());

  Workload fsx = Job();
  fsx.channels[0].file_system = true;
  fsx.volume_gb = Val::Known("800");
  f.Run(fsx);
  CHECK(f.sink.reports.empty());

  f.ctx.options["threshold_gb"] = 40;
  f.Run(w);
  CHECK(f.sink.reports.size() == 1);
}
