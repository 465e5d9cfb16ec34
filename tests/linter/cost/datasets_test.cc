#include "linter/cost/datasets.h"

#include "tests/catch.h"
#include "tests/test_util.h"

using namespace sagelint;

namespace {

double Gb(std::string_view text) {
  auto v = ParseSize(text);
  REQUIRE(v);
  return *v;
}

}  // namespace

TEST_CASE("ParseSize: decimal and binary units to GB", "[datasets]") {
  CHECK(Gb("1.2TB") == Approx(1200));
  CHECK(Gb("1.2 tb") == Approx(1200));
  CHECK(Gb("500GB") == Approx(500));
  CHECK(Gb("750") == Approx(750));  // a bare number is GB
  CHECK(Gb("2T") == Approx(2000));
  CHECK(Gb("1PB") == Approx(1e6));
  CHECK(Gb("300 MB") == Approx(0.3));
  CHECK(Gb("1GiB") == Approx(1.073741824));
  CHECK(Gb("1 TiB") == Approx(1099.511627776));
  CHECK(Gb("2048KiB") == Approx(0.002097152));
  CHECK(Gb("12345B") == Approx(0.000012345));
  CHECK_FALSE(ParseSize(""));
  CHECK_FALSE(ParseSize("TB"));
  CHECK_FALSE(ParseSize("-5GB"));
  CHECK_FALSE(ParseSize("5 XB"));
  CHECK_FALSE(ParseSize("1.2.3GB"));
}

TEST_CASE("FormatGb", "[datasets]") {
  CHECK(FormatGb(1200) == "1.2 TB");
  CHECK(FormatGb(81) == "81 GB");
  CHECK(FormatGb(0.25) == "0.2 GB");
  CHECK(FormatGb(50) == "50 GB");
}

TEST_CASE("Lookup: the longest stated prefix containing the URI wins", "[datasets]") {
  DatasetSizes d;
  CHECK(d.empty());
  d.AddPrefix("s3://ml-data/", 5000, "datasets: in .sagelint.yaml");
  d.AddPrefix("s3://ml-data/imagenet/", 1200, "--dataset-size");
  CHECK_FALSE(d.empty());
  auto s = d.Lookup("s3://ml-data/imagenet/train/");
  REQUIRE(s);
  CHECK(s->gb == 1200);
  CHECK(s->source == "--dataset-size");
  s = d.Lookup("s3://ml-data/other/");
  REQUIRE(s);
  CHECK(s->gb == 5000);
  CHECK(s->source == "datasets: in .sagelint.yaml");
  CHECK_FALSE(d.Lookup("s3://elsewhere/x/"));
}

TEST_CASE("aws s3 ls --recursive output: sums listed objects under the URI", "[datasets]") {
  std::string text = testing::ReadFileOrDie(testing::SourcePath("fixtures/datasets/s3_ls_recursive.txt"));
  DatasetSizes d;
  std::string error;
  REQUIRE(LoadS3Listing(text, "s3://ml-data", "listing.txt", &d, &error));
  auto s = d.Lookup("s3://ml-data/imagenet/train/");
  REQUIRE(s);
  CHECK(s->gb == Approx(80));
  CHECK(s->source == "S3 listing listing.txt: 2 objects under s3://ml-data/imagenet/train/");
  s = d.Lookup("s3://ml-data/imagenet/");
  REQUIRE(s);
  CHECK(s->gb == Approx(81));
  s = d.Lookup("s3://ml-data/notes/read me.txt");  // keys keep their blanks
  REQUIRE(s);
  CHECK(s->source == "S3 listing listing.txt: 1 object under s3://ml-data/notes/read me.txt");
  CHECK_FALSE(d.Lookup("s3://ml-data/imagenet/test/"));
  // A stated prefix takes precedence over the listing.
  d.AddPrefix("s3://ml-data/imagenet/", 10, "datasets: in .sagelint.yaml");
  CHECK(d.Lookup("s3://ml-data/imagenet/train/")->gb == 10);
}

TEST_CASE("aws s3 ls --human-readable sizes", "[datasets]") {
  DatasetSizes d;
  std::string error;
  REQUIRE(LoadS3Listing("2024-01-01 12:00:00   1.5 GiB a/b.bin\n2024-01-01 12:00:00  10 Bytes a/c.txt\n", "s3://bkt/",
                        "h.txt", &d, &error));
  CHECK(d.Lookup("s3://bkt/a/")->gb == Approx(1.5 * 1.073741824 + 1e-8));
}

TEST_CASE("aws s3 ls output needs the bucket, and malformed lines name their line", "[datasets]") {
  DatasetSizes d;
  std::string error;
  CHECK_FALSE(LoadS3Listing("2024-01-01 12:00:00  5 k\n", "", "l.txt", &d, &error));
  CHECK(error == "l.txt: `aws s3 ls` output does not name the bucket; give it as s3://BUCKET/=l.txt");
  CHECK_FALSE(LoadS3Listing("2024-01-01 12:00:00  5 k\n", "s3://bkt/prefix/", "l.txt", &d, &error));
  CHECK(error == "l.txt: the bucket must be given as s3://BUCKET/, not s3://bkt/prefix/");
  CHECK_FALSE(LoadS3Listing("2024-01-01 12:00:00  5 k\nnot a listing line\n", "s3://bkt/", "l.txt", &d, &error));
  CHECK(error == "l.txt:2: expected `aws s3 ls --recursive` output (DATE TIME SIZE KEY) or S3 Inventory CSV");
  CHECK_FALSE(LoadS3Listing("\"bkt\"\n", "", "inv.csv", &d, &error));
  CHECK(error == "inv.csv:1: expected \"bucket\",\"key\",…,\"size\",… (S3 Inventory CSV)");
}

TEST_CASE("S3 Inventory CSV: bucket per row, URL-encoded keys, size column found", "[datasets]") {
  std::string text = testing::ReadFileOrDie(testing::SourcePath("fixtures/datasets/inventory.csv"));
  DatasetSizes d;
  std::string error;
  REQUIRE(LoadS3Listing(text, "", "inventory.csv", &d, &error));
  auto s = d.Lookup("s3://ml-data/imagenet/train/");
  REQUIRE(s);
  CHECK(s->gb == Approx(80));
  CHECK(s->source == "S3 listing inventory.csv: 2 objects under s3://ml-data/imagenet/train/");
  CHECK(d.Lookup("s3://ml-data/imagenet/train/part 0001.tar"));
  CHECK(d.Lookup("s3://other-bucket/")->gb == Approx(7e-9));

  // Versioned inventory: VersionId, IsLatest, IsDeleteMarker come before Size;
  // a delete marker has no size; a header line is skipped.
  DatasetSizes v;
  REQUIRE(
      LoadS3Listing("\"Bucket\",\"Key\",\"VersionId\",\"IsLatest\",\"IsDeleteMarker\",\"Size\"\n"
                    "\"b\",\"k/1\",\"3HL4kqtJlcpXroDTDmJ\",\"true\",\"false\",\"2000000000\"\n"
                    "\"b\",\"k/2\",\"3HL4kqtJlcpXroDTDmK\",\"true\",\"true\",\"\"\n",
                    "", "v.csv", &v, &error));
  CHECK(v.Lookup("s3://b/k/")->gb == Approx(2));
  CHECK(v.Lookup("s3://b/k/")->source == "S3 listing v.csv: 1 object under s3://b/k/");
}

TEST_CASE("the dataset-size and s3-listing arguments", "[datasets]") {
  DatasetSizes d;
  std::string error;
  REQUIRE(AddDatasetSizeArg("s3://bkt/imagenet/=1.2TB", &d, &error));
  CHECK(d.Lookup("s3://bkt/imagenet/train/")->gb == Approx(1200));
  CHECK(d.Lookup("s3://bkt/imagenet/train/")->source == "--dataset-size");
  CHECK_FALSE(AddDatasetSizeArg("bkt/imagenet=1TB", &d, &error));
  CHECK(error == "--dataset-size expects S3URI=SIZE (e.g. s3://bkt/imagenet/=1.2TB), not bkt/imagenet=1TB");
  CHECK_FALSE(AddDatasetSizeArg("s3://bkt/x/=lots", &d, &error));
  CHECK(error == "--dataset-size: bad size 'lots' (e.g. 500GB, 1.2TB, 2TiB)");

  std::string listing = testing::SourcePath("fixtures/datasets/s3_ls_recursive.txt");
  REQUIRE(AddS3ListingArg("s3://ml-data/=" + listing, &d, &error));
  CHECK(d.Lookup("s3://ml-data/imagenet/val/")->source ==
        "S3 listing " + listing + ": 1 object under s3://ml-data/imagenet/val/");
  CHECK_FALSE(AddS3ListingArg(listing, &d, &error));
  CHECK(error == listing + ": `aws s3 ls` output does not name the bucket; give it as s3://BUCKET/=" + listing);
  REQUIRE(AddS3ListingArg(testing::SourcePath("fixtures/datasets/inventory.csv"), &d, &error));
  CHECK_FALSE(AddS3ListingArg("s3://bkt/", &d, &error));
  CHECK(error == "--s3-listing expects [s3://BUCKET/=]FILE, not s3://bkt/");
  CHECK_FALSE(AddS3ListingArg("/nonexistent.txt", &d, &error));
  CHECK(error == "/nonexistent.txt: cannot read: No such file or directory");
}

TEST_CASE("odd listings are errors naming the line, not crashes", "[datasets]") {
  const std::string csv = "odd.txt:1: expected \"bucket\",\"key\",…,\"size\",… (S3 Inventory CSV)";
  const std::string ls = "odd.txt:1: expected `aws s3 ls --recursive` output (DATE TIME SIZE KEY) or S3 Inventory CSV";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\"", csv},
      {"\"a\",\"b\"", csv},
      {"2024-01-01 12:00:00", ls},
      {"2024-01-01 12:00:00 x y", ls},
      {"\x01\x02\xff", ls},
      // A row without a size is skipped; a row without a bucket is an error.
      {"\"a\",\"b\",\"c\",\"d\"\n\"\",\"k\",\"1\"",
       "odd.txt:2: expected \"bucket\",\"key\",…,\"size\",… (S3 Inventory CSV)"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    DatasetSizes d;
    std::string error;
    CHECK_FALSE(LoadS3Listing(text, "s3://bkt/", "odd.txt", &d, &error));
    CHECK(error == expected);
  }
}
