// Parquet footers: the schema comP reads, compared field by field with what
// DuckDB reads from the same files (daemon/tests/docs/make_parquet_pdf.mjs
// writes the files with DuckDB and parquet-wasm, and DuckDB's
// parquet_schema/parquet_file_metadata/parquet_metadata/parquet_kv_metadata
// beside each as x.parquet.oracle.json); then hostile footers: outside the
// file, encrypted, truncated, random, bit-flipped, lists and strings claiming
// more than the footer holds, deep nesting, num_children that lie. They must
// end in a skip_reason or errors, never in a crash, an exception or a huge
// allocation.
#include "docs/parquet.h"

#include <gtest/gtest.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "parquet_types.h"

#include "docs/test_support.h"

namespace comp::docs {
namespace {

using namespace comp::docs::testing;

namespace fs = std::filesystem;
namespace pf = comp::docs::parquet_format;
using nlohmann::json;



std::string describe(const Document& document) {
  std::string out = "skip_reason: " + document.skip_reason + "\n";
  for (const Section& s : document.sections) out += "[" + s.kind + "] " + s.name + ": " + s.signature + "\n";
  for (const std::string& e : document.errors) out += "error: " + e + "\n";
  return out;
}


// ---------------------------------------------------------------- the DuckDB oracle

// The test's own names for the Parquet enums (parquet-format's parquet.thrift).
const std::array<const char*, 8> kTypes = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                           "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
const std::array<const char*, 4> kRepetitions = {"REQUIRED", "OPTIONAL", "REPEATED", "VECTOR"};
const std::array<const char*, 22> kConverted = {
    "UTF8",   "MAP",    "MAP_KEY_VALUE", "LIST",    "ENUM",    "DECIMAL", "DATE",  "TIME_MILLIS",
    "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32", "UINT_64",
    "INT_8",  "INT_16", "INT_32",        "INT_64",  "JSON",    "BSON",    "INTERVAL"};

template <std::size_t N>
json enum_name(const std::array<const char*, N>& names, const std::optional<std::int32_t>& v) {
  if (!v) return nullptr;
  if (*v < 0 || static_cast<std::size_t>(*v) >= N) return "?" + std::to_string(*v);
  return names[static_cast<std::size_t>(*v)];
}

json number(const std::optional<std::int32_t>& v) { return v ? json(std::to_string(*v)) : json(nullptr); }

// DuckDB prints the logical type with Thrift's printTo:
// "TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MILLIS=MilliSeconds(), MICROS=<null>, NANOS=<null>))".
// This turns it into comP's notation, "TIMESTAMP(MILLIS, UTC)", independently
// of comP's code.
std::string from_duckdb_logical(const json& value) {
  if (value.is_null()) return "";
  const std::string s = value.get<std::string>();
  const std::string kind = s.substr(0, s.find('('));
  auto param = [&](const std::string& key) {
    const std::size_t at = s.find(key + "=");
    if (at == std::string::npos) return std::string("?");
    const std::size_t start = at + key.size() + 1;
    return s.substr(start, s.find_first_of(",)", start) - start);
  };
  auto unit = [&]() -> std::string {
    for (const char* u : {"MILLIS", "MICROS", "NANOS"}) {
      if (param(u) != "<null>") return u;
    }
    return "?";
  };
  const std::map<std::string, std::string> plain = {
      {"StringType", "STRING"}, {"MapType", "MAP"},   {"ListType", "LIST"}, {"EnumType", "ENUM"},
      {"DateType", "DATE"},     {"NullType", "UNKNOWN"}, {"JsonType", "JSON"}, {"BsonType", "BSON"},
      {"UUIDType", "UUID"},     {"Float16Type", "FLOAT16"}};
  if (auto it = plain.find(kind); it != plain.end()) return it->second;
  if (kind == "DecimalType") return "DECIMAL(" + param("precision") + ", " + param("scale") + ")";
  if (kind == "TimestampType" || kind == "TimeType") {
    return std::string(kind == "TimeType" ? "TIME" : "TIMESTAMP") + "(" + unit() + ", " +
           (param("isAdjustedToUTC") == "1" ? "UTC" : "local") + ")";
  }
  if (kind == "IntType") {
    return "INTEGER(" + param("bitWidth") + ", " + (param("isSigned") == "1" ? "signed" : "unsigned") + ")";
  }
  return "unmapped:" + s;
}

struct Tally {
  std::size_t compared = 0, mismatches = 0;
  void check(const json& ours, const json& theirs, const std::string& what) {
    ++compared;
    if (ours != theirs) {
      ++mismatches;
      ADD_FAILURE() << what << ": comP " << ours.dump() << " vs DuckDB " << theirs.dump();
    }
  }
};

// Paths and depths from the oracle's depth-first names and num_children
// (recursive: the oracle files are small and trusted).
void oracle_paths(const json& schema, std::size_t& next, const std::string& prefix, int depth,
                  std::vector<std::pair<std::string, int>>& out) {
  const json& element = schema[next++];
  const std::string path = depth == 0 ? "" : depth == 1 ? element["name"].get<std::string>()
                                                        : prefix + "." + element["name"].get<std::string>();
  out.emplace_back(path, depth);
  const int children = element["num_children"].is_null() ? 0 : std::stoi(element["num_children"].get<std::string>());
  for (int i = 0; i < children; ++i) oracle_paths(schema, next, path, depth + 1, out);
}

// The column signature the header promises, built from the oracle's fields.
std::string expected_signature(const json& e, const std::string& logical) {
  std::string s = e["type"].is_null() ? "group" : e["type"].get<std::string>();
  if (s == "FIXED_LEN_BYTE_ARRAY" && !e["type_length"].is_null()) s += "(" + e["type_length"].get<std::string>() + ")";
  std::string annotation = logical;
  if (annotation.empty() && !e["converted_type"].is_null()) {
    annotation = e["converted_type"].get<std::string>();
    if (annotation == "DECIMAL") {
      annotation += "(" + e["precision"].get<std::string>() + ", " + e["scale"].get<std::string>() + ")";
    }
  }
  if (!annotation.empty()) s += " " + annotation;
  if (!e["repetition_type"].is_null()) {
    std::string r = e["repetition_type"].get<std::string>();
    for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    s += " " + r;
  }
  if (!e["field_id"].is_null()) s += ", field_id " + e["field_id"].get<std::string>();
  return s;
}

void compare_with_oracle(const std::string& name, Tally& tally) {
  SCOPED_TRACE(name);
  const std::string bytes = read(kFixtures / name);
  const json oracle = json::parse(read(kFixtures / (name + ".oracle.json")));
  std::string skip;
  std::vector<std::string> errors;
  const std::optional<ParquetFooter> footer = read_parquet_footer(bytes, bytes.size(), Limits{}, skip, errors);
  ASSERT_TRUE(footer) << skip;
  EXPECT_TRUE(errors.empty());

  const json& meta = oracle["file_metadata"];
  tally.check(std::to_string(footer->num_rows), meta["num_rows"], "num_rows");
  tally.check(std::to_string(footer->row_groups), meta["num_row_groups"], "row groups");
  tally.check(std::to_string(footer->row_groups), std::to_string(oracle["row_groups"].size()), "row groups listed");
  tally.check(footer->created_by, meta["created_by"], "created_by");
  tally.check(std::to_string(footer->version), meta["format_version"], "format version");
  const json& kv = oracle["key_value_metadata"];
  tally.check(footer->key_value_metadata.size(), kv.size(), "key-value count");
  for (std::size_t i = 0; i < std::min(kv.size(), footer->key_value_metadata.size()); ++i) {
    tally.check(footer->key_value_metadata[i].first, kv[i]["key"], "key " + std::to_string(i));
    tally.check(footer->key_value_metadata[i].second, kv[i]["value"], "value " + std::to_string(i));
  }

  const json& schema = oracle["schema"];
  tally.check(footer->fields.size(), schema.size(), "schema elements");
  std::vector<std::pair<std::string, int>> paths;
  std::size_t next = 0;
  oracle_paths(schema, next, "", 0, paths);
  ASSERT_EQ(next, schema.size());
  const Document doc = extract(Format::kParquet, bytes);
  ASSERT_EQ(doc.skip_reason, "");
  EXPECT_TRUE(doc.errors.empty()) << describe(doc);
  ASSERT_EQ(doc.sections.size(), schema.size()) << describe(doc);  // the schema section stands for the root
  for (std::size_t i = 0; i < std::min(schema.size(), footer->fields.size()); ++i) {
    const ParquetField& f = footer->fields[i];
    const json& e = schema[i];
    const std::string at = "element " + std::to_string(i) + " (" + e["name"].get<std::string>() + ") ";
    tally.check(f.name, e["name"], at + "name");
    tally.check(enum_name(kTypes, f.type), e["type"], at + "type");
    tally.check(number(f.type_length), e["type_length"], at + "type_length");
    tally.check(enum_name(kRepetitions, f.repetition), e["repetition_type"], at + "repetition");
    tally.check(number(f.num_children), e["num_children"], at + "num_children");
    tally.check(enum_name(kConverted, f.converted_type), e["converted_type"], at + "converted_type");
    tally.check(number(f.scale), e["scale"], at + "scale");
    tally.check(number(f.precision), e["precision"], at + "precision");
    tally.check(number(f.field_id), e["field_id"], at + "field_id");
    const std::string logical = from_duckdb_logical(e["logical_type"]);
    tally.check(f.logical_type, logical, at + "logical_type");
    tally.check(f.path, paths[i].first, at + "path");
    tally.check(f.depth, paths[i].second, at + "depth");
    if (i == 0) continue;
    // The Document's column sections, in the same order.
    const Section& s = doc.sections[i];
    tally.check(s.kind, "column", at + "section kind");
    tally.check(s.name, paths[i].first, at + "section name");
    tally.check(s.level, paths[i].second, at + "section level");
    tally.check(s.signature, expected_signature(e, logical), at + "section signature");
  }
  const Section& summary = doc.sections[0];
  std::size_t columns = 0;
  for (const auto& [path, depth] : paths) columns += depth == 1;
  const std::string rows = meta["num_rows"].get<std::string>();
  tally.check(summary.signature.substr(0, summary.signature.find(" column")),
              rows + (rows == "1" ? " row, " : " rows, ") + meta["num_row_groups"].get<std::string>() +
                  (meta["num_row_groups"] == "1" ? " row group, " : " row groups, ") + std::to_string(columns),
              "schema signature");
  tally.check(summary.signature.find("created_by " + meta["created_by"].get<std::string>()) != std::string::npos, true,
              "schema signature created_by");
}

TEST(ParquetOracle, SchemaMatchesDuckDbFieldByField) {
  Tally tally;
  for (const char* name : {"orders.parquet", "flat.parquet", "wasm.parquet"}) compare_with_oracle(name, tally);
  std::cout << "[ parquet oracle ] " << tally.compared << " fields compared with DuckDB, " << tally.mismatches
            << " mismatches\n";
  ::testing::Test::RecordProperty("fields_compared", static_cast<int>(tally.compared));
  ::testing::Test::RecordProperty("mismatches", static_cast<int>(tally.mismatches));
  EXPECT_EQ(tally.mismatches, 0u);
  EXPECT_GT(tally.compared, 800u);
}

TEST(ParquetExtract, SchemaSectionCarriesKeyValueMetadata) {
  const Document doc = extract(Format::kParquet, read(kFixtures / "orders.parquet"));
  ASSERT_EQ(doc.skip_reason, "");
  const Section& s = doc.sections.at(0);
  EXPECT_EQ(s.kind, "schema");
  EXPECT_EQ(s.name, "schema");
  EXPECT_EQ(s.signature, "5000 rows, 3 row groups, 23 columns (29 leaf columns), created_by DuckDB version v1.5.6 (build 069cc9f9b5)");
  EXPECT_NE(s.text.find("owner: comP fixtures"), std::string::npos) << s.text;
  EXPECT_NE(s.text.find("unicode: Grüße ✓ 日本"), std::string::npos) << s.text;
  // Nested groups and their levels.
  bool found = false;
  for (const Section& c : doc.sections) {
    if (c.name == "customer.address.geo.lat") {
      found = true;
      EXPECT_EQ(c.level, 4);
      EXPECT_EQ(c.signature, "DOUBLE optional");
    }
    if (c.name == "attrs") {
      EXPECT_EQ(c.signature, "group MAP optional");
    }
    if (c.name == "tags") {
      EXPECT_EQ(c.signature, "group LIST optional");
    }
    if (c.name == "created_tz") {
      EXPECT_EQ(c.signature, "INT64 TIMESTAMP(MICROS, UTC) optional");
    }
    if (c.name == "created_ms") {
      EXPECT_EQ(c.signature, "INT64 TIMESTAMP(MILLIS, local) optional");
    }
  }
  EXPECT_TRUE(found);
}

TEST(ParquetExtract, ArrowSchemaBlobIsNotIndexed) {
  const Document doc = extract(Format::kParquet, read(kFixtures / "wasm.parquet"));
  ASSERT_EQ(doc.skip_reason, "");
  const std::string& text = doc.sections.at(0).text;
  EXPECT_NE(text.find("source: parquet-wasm fixture\n"), std::string::npos) << text;
  EXPECT_NE(text.find("ARROW:schema: ("), std::string::npos) << text;
  EXPECT_NE(text.find("bytes of base64 Arrow schema)"), std::string::npos) << text;
  EXPECT_EQ(text.find("/////"), std::string::npos) << text;
}

// ---------------------------------------------------------------- crafted footers

// "PAR1" + the compact-protocol bytes of `meta` + length + "PAR1".
std::string file_of_footer(std::string_view footer, std::string_view magic = "PAR1") {
  std::string file = "PAR1";
  file += footer;
  const auto n = static_cast<std::uint32_t>(footer.size());
  for (int i = 0; i < 4; ++i) file += static_cast<char>((n >> (8 * i)) & 0xFF);
  file += magic;
  return file;
}

std::string serialize(const pf::FileMetaData& meta) {
  auto buffer = std::make_shared<apache::thrift::transport::TMemoryBuffer>();
  apache::thrift::protocol::TCompactProtocolT<apache::thrift::transport::TMemoryBuffer> writer(buffer);
  meta.write(&writer);
  return buffer->getBufferAsString();
}

pf::SchemaElement element(const std::string& name, std::optional<int> children = std::nullopt,
                          std::optional<int> type = std::nullopt) {
  pf::SchemaElement e;
  e.__set_name(name);
  if (children) e.__set_num_children(*children);
  if (type) e.__set_type(*type);
  e.__set_repetition_type(1);
  return e;
}

pf::FileMetaData meta_of(std::vector<pf::SchemaElement> schema) {
  pf::FileMetaData meta;
  meta.__set_version(1);
  meta.__set_schema(std::move(schema));
  meta.__set_num_rows(0);
  meta.__set_row_groups({});
  return meta;
}

Document extract_meta(const pf::FileMetaData& meta, const Limits& limits = {}) {
  return extract(Format::kParquet, file_of_footer(serialize(meta)), limits);
}

TEST(ParquetHostile, ChildrenClaimedBeyondTheList) {
  const Document doc = extract_meta(meta_of({element("root", 3), element("a", std::nullopt, 1), element("g", 5),
                                             element("x", std::nullopt, 2)}));
  ASSERT_EQ(doc.skip_reason, "");
  ASSERT_EQ(doc.sections.size(), 4u) << describe(doc);
  EXPECT_EQ(doc.sections[3].name, "g.x");
  EXPECT_EQ(doc.sections[3].level, 2);
  EXPECT_TRUE(contains(doc.errors, "5 declared children missing")) << describe(doc);
}

TEST(ParquetHostile, NegativeChildrenAndLeftoverElements) {
  const Document doc = extract_meta(meta_of({element("root", 1), element("g", -5), element("y", std::nullopt, 1)}));
  ASSERT_EQ(doc.skip_reason, "");
  ASSERT_EQ(doc.sections.size(), 2u) << describe(doc);
  EXPECT_TRUE(contains(doc.errors, "negative num_children")) << describe(doc);
  EXPECT_TRUE(contains(doc.errors, "1 elements after the root's last child ignored")) << describe(doc);
}

TEST(ParquetHostile, DeepNestingIsCutAtTheDepthLimit) {
  std::vector<pf::SchemaElement> schema = {element("root", 1)};
  for (int i = 0; i < 5000; ++i) schema.push_back(element("n", 1));
  schema.push_back(element("leaf", std::nullopt, 1));
  const Document doc = extract_meta(meta_of(schema));
  ASSERT_EQ(doc.skip_reason, "");
  EXPECT_TRUE(contains(doc.errors, "nested deeper than 64 levels")) << doc.errors.size();
  EXPECT_LE(doc.sections.size(), kMaxSchemaDepth + 1);
  for (const Section& s : doc.sections) EXPECT_LE(s.level, static_cast<int>(kMaxSchemaDepth));
}

TEST(ParquetHostile, ManyColumnsStopAtTheTextLimit) {
  std::vector<pf::SchemaElement> schema = {element("root", 100000)};
  for (int i = 0; i < 100000; ++i) schema.push_back(element("column_" + std::to_string(i), std::nullopt, 2));
  Limits limits;
  limits.max_text_bytes = 64 << 10;
  const Document doc = extract_meta(meta_of(schema), limits);
  ASSERT_EQ(doc.skip_reason, "");
  EXPECT_LT(doc.sections.size(), 2000u);
  EXPECT_TRUE(contains(doc.errors, "listing stopped")) << describe(doc).substr(0, 300);
}

TEST(ParquetHostile, LongMetadataValuesAreCut) {
  pf::FileMetaData meta = meta_of({element("root", 1), element("a", std::nullopt, 1)});
  pf::KeyValue kv;
  kv.__set_key("pandas");
  kv.__set_value(std::string(300, 'x') + "\n" + std::string(1000, '\xC3'));
  meta.__set_key_value_metadata({kv});
  const Document doc = extract_meta(meta);
  ASSERT_EQ(doc.skip_reason, "");
  const std::string& text = doc.sections.at(0).text;
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_LE(text.size(), std::string("pandas: ").size() + kMaxMetadataValueBytes + 3);
  EXPECT_EQ(text.substr(text.size() - 3), "\u2026");
}

TEST(ParquetHostile, EmptySchemaIsSkipped) {
  const Document doc = extract_meta(meta_of({}));
  EXPECT_EQ(doc.skip_reason, "corrupt Parquet footer: no schema");
}

// Raw compact-protocol bytes: field 2 of FileMetaData is a list of structs
// whose header claims 2^28 elements; field 6 a string claiming 1 GiB; an
// undeclared field nesting structs 10000 deep.
TEST(ParquetHostile, ClaimsBeyondTheFooterAreRefusedBeforeAllocating) {
  const std::string huge_list = std::string("\x29\xFC\x80\x80\x80\x80\x01", 7) + std::string(20, '\0');
  Document doc = extract(Format::kParquet, file_of_footer(huge_list));
  EXPECT_NE(doc.skip_reason.find("corrupt Parquet footer"), std::string::npos) << doc.skip_reason;

  const std::string huge_string = std::string("\x68\x80\x80\x80\x80\x04", 6) + std::string(20, 'a');
  doc = extract(Format::kParquet, file_of_footer(huge_string));
  EXPECT_NE(doc.skip_reason.find("corrupt Parquet footer"), std::string::npos) << doc.skip_reason;

  std::string deep = "\x7C";  // field 7, a struct nobody declared: skipped, recursively
  for (int i = 0; i < 10000; ++i) deep += "\x1C";
  doc = extract(Format::kParquet, file_of_footer(deep));
  EXPECT_NE(doc.skip_reason.find("corrupt Parquet footer"), std::string::npos) << doc.skip_reason;
}

// ---------------------------------------------------------------- damaged files

TEST(ParquetHostile, FooterLengthOutsideTheFile) {
  std::string file = read(kFixtures / "flat.parquet");
  file[file.size() - 5] = '\x7F';  // footer length's high byte
  const Document doc = extract(Format::kParquet, file);
  EXPECT_NE(doc.skip_reason.find("outside the file"), std::string::npos) << doc.skip_reason;
  EXPECT_TRUE(doc.sections.empty());
}

TEST(ParquetHostile, EncryptedFooterIsNamed) {
  std::string file = read(kFixtures / "flat.parquet");
  file.replace(file.size() - 4, 4, "PARE");
  file.replace(0, 4, "PARE");
  EXPECT_EQ(extract(Format::kParquet, file).skip_reason, "encrypted Parquet footer");
  EXPECT_EQ(extract(Format::kParquet, std::string("PAREjunkjunkjunkPARE")).skip_reason, "encrypted Parquet footer");
}

// Written by DuckDB with a footer key (make_parquet_pdf.mjs): named, not guessed at.
TEST(ParquetHostile, EncryptedFileFromARealWriter) {
  const fs::path path = kFixtures / "encrypted.parquet";
  EXPECT_EQ(extract_file(Format::kParquet, path).skip_reason, "encrypted Parquet footer");
  EXPECT_EQ(extract(Format::kParquet, read(path)).skip_reason, "encrypted Parquet footer");
}

TEST(ParquetHostile, BadMagicAndTinyFiles) {
  EXPECT_EQ(extract(Format::kParquet, "").skip_reason, "not a Parquet file: 0 bytes is too short");
  EXPECT_EQ(extract(Format::kParquet, "PAR1PAR1").skip_reason, "not a Parquet file: 8 bytes is too short");
  std::string file = read(kFixtures / "flat.parquet");
  std::string bad_tail = file;
  bad_tail.back() = 'X';
  EXPECT_EQ(extract(Format::kParquet, bad_tail).skip_reason, "not a Parquet file: no PAR1 magic at the end");
  std::string bad_head = file;
  bad_head[0] = 'X';
  EXPECT_EQ(extract(Format::kParquet, bad_head).skip_reason, "not a Parquet file: no PAR1 magic at the start");
  std::string empty_footer = "PAR1" + std::string(4, '\0') + std::string(4, '\0') + "PAR1";
  EXPECT_EQ(extract(Format::kParquet, empty_footer).skip_reason, "corrupt Parquet file: empty footer");
}

TEST(ParquetHostile, FooterLargerThanTheLimitIsNotRead) {
  Limits limits;
  limits.max_file_bytes = 100;
  const Document doc = extract(Format::kParquet, read(kFixtures / "wasm.parquet"), limits);
  EXPECT_NE(doc.skip_reason.find("Parquet footer too large"), std::string::npos) << doc.skip_reason;
}

TEST(ParquetHostile, EveryTruncationIsSkippedOrRead) {
  const std::string file = read(kFixtures / "flat.parquet");
  for (std::size_t n = 0; n < file.size(); ++n) {
    const Document prefix = extract(Format::kParquet, std::string_view(file).substr(0, n));
    EXPECT_FALSE(prefix.skip_reason.empty()) << n;  // the tail magic is gone
    const Document suffix = extract(Format::kParquet, std::string_view(file).substr(n));
    if (n > 0) {
      EXPECT_FALSE(suffix.skip_reason.empty()) << n;  // the head magic or the footer is gone
    }
  }
}

TEST(ParquetHostile, RandomBytesWithAParquetTail) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 3000; ++round) {
    const std::size_t footer = 1 + rng() % 300;
    std::string bytes(footer, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    const Document doc = extract(Format::kParquet, file_of_footer(bytes));
    if (doc.skip_reason.empty()) {
      EXPECT_FALSE(doc.sections.empty());
    } else {
      EXPECT_TRUE(doc.sections.empty());
    }
  }
}

TEST(ParquetHostile, BitFlippedFootersNeverCrash) {
  const std::string file = read(kFixtures / "orders.parquet");
  const std::uint32_t footer = static_cast<unsigned char>(file[file.size() - 8]) |
                               static_cast<unsigned char>(file[file.size() - 7]) << 8 |
                               static_cast<unsigned char>(file[file.size() - 6]) << 16 |
                               static_cast<unsigned char>(file[file.size() - 5]) << 24;
  const std::size_t start = file.size() - 8 - footer;
  std::mt19937 rng(99);
  std::size_t read_ok = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string damaged = file;
    for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips) {
      damaged[start + rng() % footer] ^= static_cast<char>(1u << (rng() % 8));
    }
    const Document doc = extract(Format::kParquet, damaged);
    read_ok += doc.skip_reason.empty();
  }
  std::cout << "[ parquet bit flips ] " << read_ok << " of 2000 damaged footers still decoded\n";
}

// Inputs that once failed under the fuzzer (daemon/fuzz/parquet_fuzz.cc).
TEST(ParquetHostile, FuzzRegressions) {
  const fs::path dir = kFixtures / "regressions";
  if (!fs::exists(dir)) GTEST_SKIP() << "no regressions directory";
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("parquet-", 0) != 0) continue;
    ++count;
    const Document doc = extract(Format::kParquet, read(entry.path()));
    Document copy = doc;
    (void)render(copy);
  }
  std::cout << "[ parquet regressions ] " << count << " inputs\n";
}

}  // namespace
}  // namespace comp::docs
