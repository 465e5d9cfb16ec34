// Known sizes of data under S3 prefixes, for SM301 (File mode on a large
// dataset). Sizes come from the config (`datasets:`), `--dataset-size
// S3URI=SIZE`, and `--s3-listing [s3://BUCKET/=]FILE` (the output of `aws s3 ls
// --recursive --summarize`, or an S3 Inventory CSV).
#ifndef SAGELINT_LINTER_COST_DATASETS_H_
#define SAGELINT_LINTER_COST_DATASETS_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sagelint {

// "1.2TB" -> 1200 (GB). Decimal units B, KB, MB, GB, TB, PB (also K, M, G, T,
// P); binary units KiB, MiB, GiB, TiB, PiB; case-insensitive; blanks allowed
// between number and unit; a bare number is GB. nullopt when malformed or negative.
std::optional<double> ParseSize(std::string_view text);
// "1.2 TB", "540 GB", "0.5 GB": for messages.
std::string FormatGb(double gb);

struct DatasetSize {
  double gb = 0;
  std::string source;  // how the size is known, for the finding's message
};

class DatasetSizes {
 public:
  // A size stated for a prefix ("s3://ml-data/imagenet/"); `source` says where
  // ("datasets: in .sagelint.yaml", "--dataset-size"). A later statement of
  // the same prefix replaces the earlier one.
  void AddPrefix(std::string prefix, double gb, std::string source);
  // One listed object (full URI "s3://bucket/key"); `listing` names its file.
  void AddObject(std::string uri, double bytes, const std::string& listing);
  // Everything `later` states, as if added after what this holds.
  void Merge(const DatasetSizes& later);

  // The size of the data a channel reading `s3_uri` downloads: the longest
  // stated prefix that contains the URI (the URI starts with it); else the sum
  // of listed objects whose URI starts with `s3_uri` (S3 key-prefix matching,
  // as S3Prefix channels select objects). nullopt when neither applies.
  std::optional<DatasetSize> Lookup(std::string_view s3_uri) const;
  bool empty() const { return prefixes_.empty() && objects_.empty(); }

 private:
  struct Object {
    double bytes = 0;
    std::string listing;
  };
  std::map<std::string, DatasetSize, std::less<>> prefixes_;
  std::map<std::string, Object, std::less<>> objects_;
};

// Loads a listing into `out`. The format is detected from the content:
//   - S3 Inventory CSV (lines start with a quote): "bucket","key",…; the size
//     is the first all-digit field after the key (the position depends on the
//     inventory's optional fields); keys are URL-decoded; a header line whose
//     first field is "Bucket" is skipped.
//   - `aws s3 ls --recursive --summarize` (optionally --human-readable):
//     "2024-01-01 12:00:00      12345 path/key"; `PRE` and "Total …" lines are
//     skipped. Keys in this output are relative to the bucket, which the lines
//     do not name: `bucket_uri` ("s3://bkt/" or "s3://bkt") supplies it, as in
//     `--s3-listing s3://bkt/=listing.txt`.
// `label` names the file in sources and errors. Returns false and sets
// `*error` ("listing.txt:3: …") on a malformed line or a missing bucket.
bool LoadS3Listing(std::string_view text, std::string_view bucket_uri, const std::string& label, DatasetSizes* out,
                   std::string* error);

// `--dataset-size S3URI=SIZE` (split at the last '='; the URI must start
// with s3://). Adds the prefix with source "--dataset-size".
bool AddDatasetSizeArg(std::string_view arg, DatasetSizes* out, std::string* error);
// `--s3-listing [s3://BUCKET/=]FILE`: reads FILE and loads it (LoadS3Listing,
// label = FILE). The bucket part is needed for `aws s3 ls` output only.
bool AddS3ListingArg(std::string_view arg, DatasetSizes* out, std::string* error);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_COST_DATASETS_H_
