// Unit cases for each gitignore rule, git's wildmatch corners, and the git
// config reading. Whole-walk agreement with real git is in walker_test.cc.
#include "walk/ignore.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace comp::walk {
namespace {

// ---------------------------------------------------------------------------
// wildmatch

struct WildCase {
  const char* pattern;
  const char* text;
  bool with_pathname;     // result with WM_PATHNAME (how path patterns are matched)
  bool without_pathname;  // result without it (how basename patterns are matched)
};

class WildmatchTest : public ::testing::TestWithParam<WildCase> {};

TEST_P(WildmatchTest, MatchesLikeGit) {
  const WildCase& c = GetParam();
  EXPECT_EQ(wildmatch(c.pattern, c.text, true), c.with_pathname)
      << "pattern '" << c.pattern << "' text '" << c.text << "' with WM_PATHNAME";
  EXPECT_EQ(wildmatch(c.pattern, c.text, false), c.without_pathname)
      << "pattern '" << c.pattern << "' text '" << c.text << "' without WM_PATHNAME";
}

INSTANTIATE_TEST_SUITE_P(
    Literals, WildmatchTest,
    ::testing::Values(WildCase{"foo", "foo", true, true}, WildCase{"foo", "bar", false, false},
                      WildCase{"", "", true, true}, WildCase{"", "a", false, false},
                      WildCase{"foo", "foobar", false, false}, WildCase{"Foo", "foo", false, false},
                      WildCase{"foo\\*", "foo*", true, true}, WildCase{"foo\\*bar", "foobar", false, false},
                      WildCase{"f\\\\oo", "f\\oo", true, true}, WildCase{"\\", "\\", false, false},
                      WildCase{"\\a", "a", true, true}, WildCase{"\\#x", "#x", true, true}));

INSTANTIATE_TEST_SUITE_P(
    StarsAndQuestionMarks, WildmatchTest,
    ::testing::Values(
        WildCase{"???", "foo", true, true}, WildCase{"??", "foo", false, false},
        WildCase{"*", "foo", true, true}, WildCase{"f*", "foo", true, true},
        WildCase{"*f", "foo", false, false}, WildCase{"*foo*", "foo", true, true},
        WildCase{"*ob*a*r*", "foobar", true, true}, WildCase{"*ab", "aaaaaaabababab", true, true},
        WildCase{"*", "", true, true}, WildCase{"*", "a/b", false, true},
        WildCase{"?", "/", false, true}, WildCase{"foo?bar", "foo/bar", false, true},
        WildCase{"foo*bar", "foo/baz/bar", false, true},
        WildCase{"*/foo", "a/b/foo", false, true}, WildCase{"a/*", "a/b/c", false, true},
        WildCase{"a/*", "a/b", true, true}, WildCase{"*/b", "a/b", true, true},
        WildCase{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1",
                 true, true},
        WildCase{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1",
                 false, false}));

INSTANTIATE_TEST_SUITE_P(
    DoubleStars, WildmatchTest,
    ::testing::Values(
        // Without WM_PATHNAME "**" is a plain "*": no zero-directory shortcut.
        WildCase{"**", "a/b/c", true, true}, WildCase{"**/foo", "foo", true, false},
        WildCase{"**/foo", "a/b/foo", true, true}, WildCase{"**/foo", "xfoo", false, false},
        WildCase{"foo/**", "foo/bar/baz", true, true}, WildCase{"foo/**", "foo", false, false},
        WildCase{"foo/**", "foo/", true, true}, WildCase{"foo/**/bar", "foo/bar", true, false},
        WildCase{"foo/**/bar", "foo/baz/bar", true, true},
        WildCase{"foo/**/bar", "foo/b/a/z/bar", true, true},
        WildCase{"foo/**/**/bar", "foo/b/a/z/bar", true, true},
        // "**" that is not a whole component is an ordinary "*".
        WildCase{"foo**bar", "foo/baz/bar", false, true}, WildCase{"foo**bar", "fooxbar", true, true},
        WildCase{"**foo", "a/foo", false, true}, WildCase{"a/**b", "a/x/b", false, true},
        WildCase{"a/**b", "a/xb", true, true}));

INSTANTIATE_TEST_SUITE_P(
    CharacterClasses, WildmatchTest,
    ::testing::Values(
        WildCase{"*[al]?", "ball", true, true}, WildCase{"[ten]", "ten", false, false},
        WildCase{"**[!te]", "ten", true, true}, WildCase{"**[!ten]", "ten", false, false},
        WildCase{"t[a-g]n", "ten", true, true}, WildCase{"t[!a-g]n", "ten", false, false},
        WildCase{"t[!a-g]n", "ton", true, true}, WildCase{"t[^a-g]n", "ton", true, true},
        WildCase{"a[]]b", "a]b", true, true}, WildCase{"a[]-]b", "a-b", true, true},
        WildCase{"a[]-]b", "a]b", true, true}, WildCase{"a[]-]b", "aab", false, false},
        WildCase{"a[]a-]b", "aab", true, true}, WildCase{"]", "]", true, true},
        WildCase{"[!]]", "a", true, true}, WildCase{"[!]]", "]", false, false},
        WildCase{"[-a]", "-", true, true}, WildCase{"[a-]", "-", true, true},
        WildCase{"[\\]]", "]", true, true}, WildCase{"[\\-a]", "b", false, false},
        WildCase{"[a\\-c]", "b", false, false}, WildCase{"[a-\\c]", "b", true, true},
        WildCase{"foo[/]bar", "foo/bar", false, true}, WildCase{"a[!b]c", "a/c", false, true},
        WildCase{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true, true},
        WildCase{"[[:digit:][:upper:][:space:]]", "A", true, true},
        WildCase{"[[:digit:][:upper:][:space:]]", "a", false, false},
        WildCase{"[[:digit:][:upper:][:space:]]", " ", true, true},
        WildCase{"[[:xdigit:]]", "f", true, true}, WildCase{"[[:xdigit:]]", "g", false, false},
        WildCase{"[[:punct:]]", ",", true, true}, WildCase{"[[:lower:]]", "A", false, false},
        WildCase{"[a-c[:digit:]x-z]", "5", true, true}, WildCase{"[a-c[:digit:]x-z]", "y", true, true},
        WildCase{"[a-c[:digit:]x-z]", "q", false, false},
        WildCase{"[:alpha:]", "a", true, true},  // a plain set of ':', 'a', 'l', 'p', 'h'
        WildCase{"[:alpha:]", "b", false, false}, WildCase{"[[:foo:]]", "f", false, false},
        WildCase{"[[:alpha:]", "a", false, false}, WildCase{"[[:alpha", "[", false, false},
        WildCase{"a[", "a[", false, false}, WildCase{"[", "[", false, false},
        WildCase{"[!", "a", false, false}));

// ---------------------------------------------------------------------------
// Parsing of ignore files

std::vector<std::string> globs(const IgnoreFile& f) {
  std::vector<std::string> out;
  for (const auto& p : f.patterns()) out.push_back(p.glob);
  return out;
}

TEST(IgnoreFileParse, SkipsCommentsAndBlankLinesButNotEscapedHash) {
  const IgnoreFile f = IgnoreFile::parse("# comment\n\n\\#hash\n  # not a comment\nfoo\n", "");
  EXPECT_EQ(globs(f), (std::vector<std::string>{"\\#hash", "  # not a comment", "foo"}));
  EXPECT_EQ(f.match("#hash", false), IgnoreVerdict::kIgnore);
  EXPECT_EQ(f.match("# comment", false), IgnoreVerdict::kNone);
}

TEST(IgnoreFileParse, TrailingSpacesAreTrimmedUnlessEscaped) {
  const IgnoreFile f = IgnoreFile::parse("a  \nb\\ \nc\\  \nd\t\ne \\\n", "");
  EXPECT_EQ(globs(f), (std::vector<std::string>{"a", "b\\ ", "c\\ ", "d\t", "e \\"}));
  EXPECT_EQ(f.match("a", false), IgnoreVerdict::kIgnore);
  EXPECT_EQ(f.match("a ", false), IgnoreVerdict::kNone);
  EXPECT_EQ(f.match("b ", false), IgnoreVerdict::kIgnore);
  EXPECT_EQ(f.match("b", false), IgnoreVerdict::kNone);
  EXPECT_EQ(f.match("c ", false), IgnoreVerdict::kIgnore);
  EXPECT_EQ(f.match("d\t", false), IgnoreVerdict::kIgnore);  // tabs are not trimmed
}

TEST(IgnoreFileParse, HandlesCrlfBomMissingFinalNewlineAndNul) {
  const IgnoreFile f = IgnoreFile::parse("\xEF\xBB\xBFone\r\ntwo\r\n\r\nthree", "");
  EXPECT_EQ(globs(f), (std::vector<std::string>{"one", "two", "three"}));
  const IgnoreFile g = IgnoreFile::parse(std::string("ab\0cd\n", 6), "");
  EXPECT_EQ(globs(g), (std::vector<std::string>{"ab"}));
}

TEST(IgnoreFileParse, FlagsFollowGitsParsePathPattern) {
  const IgnoreFile f = IgnoreFile::parse("!neg\ndir/\n/anchored\na/b\n*.o\nx*y\n", "");
  const auto& p = f.patterns();
  ASSERT_EQ(p.size(), 6u);
  EXPECT_TRUE(p[0].negated);
  EXPECT_EQ(p[0].glob, "neg");
  EXPECT_TRUE(p[1].dir_only);
  EXPECT_TRUE(p[1].basename_only);
  EXPECT_EQ(p[1].glob, "dir");
  EXPECT_FALSE(p[2].basename_only);
  EXPECT_FALSE(p[3].basename_only);
  EXPECT_TRUE(p[4].ends_with);
  EXPECT_EQ(p[4].literal_len, 0u);
  EXPECT_FALSE(p[5].ends_with);
  EXPECT_EQ(p[5].literal_len, 1u);
}

TEST(IgnoreFileParse, PatternsThatCanMatchNothingAreDropped) {
  EXPECT_TRUE(IgnoreFile::parse("!\n/\n   \n\r\n", "").empty());
}

// ---------------------------------------------------------------------------
// Matching rules

struct Probe {
  const char* path;
  bool is_dir;
  IgnoreVerdict expected;
};

void expect_verdicts(const IgnoreFile& f, const std::vector<Probe>& probes) {
  for (const Probe& p : probes) {
    EXPECT_EQ(f.match(p.path, p.is_dir), p.expected)
        << "path '" << p.path << "'" << (p.is_dir ? " (dir)" : "");
  }
}

constexpr auto kIgnore = IgnoreVerdict::kIgnore;
constexpr auto kInclude = IgnoreVerdict::kInclude;
constexpr auto kNone = IgnoreVerdict::kNone;

TEST(IgnoreMatch, PatternWithoutSlashMatchesBasenameAtAnyDepth) {
  expect_verdicts(IgnoreFile::parse("foo\n", ""),
                  {{"foo", false, kIgnore}, {"a/b/foo", false, kIgnore}, {"a/foo", true, kIgnore},
                   {"foox", false, kNone}, {"foo/x", false, kNone}});
}

TEST(IgnoreMatch, TrailingSlashMatchesDirectoriesOnly) {
  expect_verdicts(IgnoreFile::parse("build/\n", ""),
                  {{"build", true, kIgnore}, {"a/build", true, kIgnore}, {"build", false, kNone}});
}

TEST(IgnoreMatch, LeadingOrMiddleSlashAnchorsToTheFilesDirectory) {
  expect_verdicts(IgnoreFile::parse("/top\nmid/dle\n", ""),
                  {{"top", false, kIgnore}, {"a/top", false, kNone}, {"mid/dle", false, kIgnore},
                   {"x/mid/dle", false, kNone}});
  expect_verdicts(IgnoreFile::parse("/top\nmid/dle\nany\n", "sub/dir/"),
                  {{"sub/dir/top", false, kIgnore}, {"sub/dir/x/top", false, kNone},
                   {"sub/dir/mid/dle", false, kIgnore}, {"sub/dir/x/mid/dle", false, kNone},
                   {"sub/dir/x/any", false, kIgnore}});
}

TEST(IgnoreMatch, StarDoesNotCrossSlashesInPathPatterns) {
  expect_verdicts(IgnoreFile::parse("doc/*.txt\n*.o\n", ""),
                  {{"doc/a.txt", false, kIgnore}, {"doc/sub/a.txt", false, kNone},
                   {"x.o", false, kIgnore}, {"deep/er/x.o", false, kIgnore}});
}

TEST(IgnoreMatch, DoubleStarForms) {
  expect_verdicts(IgnoreFile::parse("**/lead\ntrail/**\na/**/b\n", ""),
                  {{"lead", false, kIgnore}, {"x/y/lead", true, kIgnore}, {"trail", true, kNone},
                   {"trail/x", false, kIgnore}, {"trail/x/y", true, kIgnore}, {"a/b", false, kIgnore},
                   {"a/x/b", false, kIgnore}, {"a/x/y/b", false, kIgnore}, {"a/xb", false, kNone}});
}

TEST(IgnoreMatch, LiteralHeadIsComparedBeforeWildmatchAsInGit) {
  // git compares "a" literally and wildmatches "**/b" against the rest, where
  // the "**/" now starts the pattern and may match nothing.
  expect_verdicts(IgnoreFile::parse("a**/b\n", ""),
                  {{"a/b", false, kIgnore}, {"ab", false, kIgnore}, {"axyz/b", false, kIgnore}});
}

TEST(IgnoreMatch, QuestionMarkAndClasses) {
  expect_verdicts(IgnoreFile::parse("?.c\n[ab]x\n[!c]y\nn[0-9]\n", ""),
                  {{"a.c", false, kIgnore}, {"ab.c", false, kNone}, {"ax", false, kIgnore},
                   {"cx", false, kNone}, {"ay", false, kIgnore}, {"cy", false, kNone},
                   {"n5", false, kIgnore}, {"na", false, kNone}});
}

TEST(IgnoreMatch, EscapedBangAndHashAreLiterals) {
  expect_verdicts(IgnoreFile::parse("\\!important\n\\#file\n", ""),
                  {{"!important", false, kIgnore}, {"important", false, kNone}, {"#file", false, kIgnore}});
}

TEST(IgnoreMatch, LastMatchingPatternWins) {
  expect_verdicts(IgnoreFile::parse("*.log\n!keep.log\n", ""),
                  {{"a.log", false, kIgnore}, {"keep.log", false, kInclude}});
  expect_verdicts(IgnoreFile::parse("!keep.log\n*.log\n", ""), {{"keep.log", false, kIgnore}});
}

TEST(IgnoreMatch, DirOnlyNegationSkipsFiles) {
  expect_verdicts(IgnoreFile::parse("x\n!x/\n", ""), {{"x", true, kInclude}, {"x", false, kIgnore}});
}

TEST(IgnoreRules, DeeperFilesOverrideShallowerAndGlobalsRankLowest) {
  IgnoreRules rules;
  rules.add_global(IgnoreFile::parse("*.tmp\n!keep.me\n", ""));  // e.g. core.excludesFile
  rules.add_global(IgnoreFile::parse("keep.me\n", ""));         // e.g. info/exclude
  const auto root = rules.push(IgnoreRules::kGlobalScope, IgnoreFile::parse("*.log\n!root.tmp\n", ""));
  const auto sub = rules.push(root, IgnoreFile::parse("!*.log\nsub.txt\n", "sub/"));

  EXPECT_TRUE(rules.is_ignored(root, "a.tmp", false));
  EXPECT_FALSE(rules.is_ignored(root, "root.tmp", false));  // root .gitignore beats globals
  EXPECT_TRUE(rules.is_ignored(root, "keep.me", false));    // info/exclude beats excludesFile
  EXPECT_TRUE(rules.is_ignored(root, "a.log", false));
  EXPECT_FALSE(rules.is_ignored(sub, "sub/a.log", false));  // deeper wins
  EXPECT_TRUE(rules.is_ignored(sub, "sub/sub.txt", false));
  EXPECT_FALSE(rules.is_ignored(root, "sub.txt", false));
  EXPECT_FALSE(rules.is_ignored(IgnoreRules::kGlobalScope, "a.log", false));
  EXPECT_EQ(rules.push(sub, IgnoreFile()), sub);
}

TEST(IgnoreRules, FirstFileWithAMatchDecidesEvenIfAShallowerOneDisagreesLater) {
  IgnoreRules rules;
  const auto root = rules.push(IgnoreRules::kGlobalScope, IgnoreFile::parse("!x\n", ""));
  const auto sub = rules.push(root, IgnoreFile::parse("x\n", "d/"));
  EXPECT_TRUE(rules.is_ignored(sub, "d/x", false));
  EXPECT_FALSE(rules.is_ignored(root, "x", false));
}

// ---------------------------------------------------------------------------
// git config

TEST(CoreExcludesFile, ReadsTheLastSettingCaseInsensitively) {
  EXPECT_EQ(core_excludes_file("[core]\n\texcludesFile = ~/.gitignore_global\n"), "~/.gitignore_global");
  EXPECT_EQ(core_excludes_file("[Core]\nEXCLUDESFILE=a\n[core]\nexcludesfile = b"), "b");
  EXPECT_EQ(core_excludes_file("[core] excludesfile = same-line\n"), "same-line");
  EXPECT_EQ(core_excludes_file("[user]\nname = x\n"), std::nullopt);
  EXPECT_EQ(core_excludes_file(""), std::nullopt);
}

TEST(CoreExcludesFile, OtherSectionsAndSubsectionsDoNotCount) {
  EXPECT_EQ(core_excludes_file("[core \"sub\"]\nexcludesfile = x\n"), std::nullopt);
  EXPECT_EQ(core_excludes_file("[core.sub]\nexcludesfile = x\n"), std::nullopt);
  EXPECT_EQ(core_excludes_file("[core]\nexcludesfile=a\n[user]\nexcludesfile=b\n"), "a");
  EXPECT_EQ(core_excludes_file("excludesfile = a\n"), std::nullopt);  // no section yet
}

TEST(CoreExcludesFile, ValueSyntax) {
  EXPECT_EQ(core_excludes_file("[core]\nexcludesfile = \"a b ; c\" ; comment\n"), "a b ; c");
  EXPECT_EQ(core_excludes_file("[core]\nexcludesfile = a   b  # comment\n"), "a   b");
  EXPECT_EQ(core_excludes_file("[core]\nexcludesfile = a\\tb\\\\c\\\"d\n"), "a\tb\\c\"d");
  EXPECT_EQ(core_excludes_file("[core]\nexcludesfile = a\\\nb\n"), "ab");
  EXPECT_EQ(core_excludes_file("[core]\r\nexcludesfile = crlf\r\n"), "crlf");
  EXPECT_EQ(core_excludes_file("; top comment\n# another\n[core]\n  excludesfile = x\n"), "x");
  EXPECT_EQ(core_excludes_file("[core]\nexcludesfile =\n"), "");
}

TEST(CoreExcludesFile, SyntaxErrorsStopTheRead) {
  EXPECT_EQ(core_excludes_file("[core\nexcludesfile = x\n"), std::nullopt);
  EXPECT_EQ(core_excludes_file("[core]\nexcludesfile = x\n1bad = y\nexcludesfile = z\n"), "x");
  EXPECT_EQ(core_excludes_file("[core]\nexcludesfile = \"unterminated\n"), std::nullopt);
  EXPECT_EQ(core_excludes_file("[core]\nexcludesfile\n"), std::nullopt);
}

// Sets environment variables for one test and restores them afterwards.
class ScopedEnv {
 public:
  void set(const char* name, const char* value) {
    remember(name);
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }

 private:
  void remember(const char* name) {
    if (saved_.count(name) != 0) return;
    const char* v = std::getenv(name);
    saved_[name] = v != nullptr ? std::optional<std::string>(v) : std::nullopt;
  }
  std::map<std::string, std::optional<std::string>> saved_;
};

TEST(ExpandTilde, ExpandsHomeAndUsers) {
  ScopedEnv env;
  env.set("HOME", "/home/someone");
  EXPECT_EQ(expand_tilde("~/x/y"), "/home/someone/x/y");
  EXPECT_EQ(expand_tilde("~"), "/home/someone");
  EXPECT_EQ(expand_tilde("a/~/b"), "a/~/b");
  EXPECT_EQ(expand_tilde("/abs"), "/abs");
  EXPECT_EQ(expand_tilde("~root/x"), "/root/x");
  EXPECT_EQ(expand_tilde("~no-such-user-here/x"), std::nullopt);
  env.set("HOME", nullptr);
  EXPECT_EQ(expand_tilde("~/x"), std::nullopt);
}

class TempTree : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "ignore_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::filesystem::path& rel, const std::string& text) {
    std::filesystem::create_directories((dir_ / rel).parent_path());
    std::ofstream(dir_ / rel, std::ios::binary) << text;
  }
  std::filesystem::path dir_;
};

using ExcludesFilePath = TempTree;

TEST_F(ExcludesFilePath, DefaultsToXdgThenHomeConfig) {
  ScopedEnv env;
  env.set("GIT_CONFIG_NOSYSTEM", "1");
  env.set("GIT_CONFIG_GLOBAL", nullptr);
  env.set("HOME", (dir_ / "home").c_str());
  env.set("XDG_CONFIG_HOME", (dir_ / "xdg").c_str());
  EXPECT_EQ(excludes_file_path(nullptr), dir_ / "xdg" / "git" / "ignore");
  env.set("XDG_CONFIG_HOME", "");
  EXPECT_EQ(excludes_file_path(nullptr), dir_ / "home" / ".config" / "git" / "ignore");
}

TEST_F(ExcludesFilePath, LaterConfigFilesWinAndTildeExpands) {
  ScopedEnv env;
  env.set("GIT_CONFIG_NOSYSTEM", "1");
  env.set("GIT_CONFIG_GLOBAL", nullptr);
  env.set("HOME", (dir_ / "home").c_str());
  env.set("XDG_CONFIG_HOME", (dir_ / "xdg").c_str());
  write("xdg/git/config", "[core]\n\texcludesFile = /from/xdg\n");
  EXPECT_EQ(excludes_file_path(nullptr), "/from/xdg");
  write("home/.gitconfig", "[core]\n\texcludesFile = ~/from-home\n");
  EXPECT_EQ(excludes_file_path(nullptr), dir_ / "home" / "from-home");

  GitRepo repo{dir_ / "repo", dir_ / "repo" / ".git", dir_ / "repo" / ".git"};
  write("repo/.git/config", "[core]\n\texcludesFile = relative/ignore\n");
  EXPECT_EQ(excludes_file_path(&repo), dir_ / "repo" / "relative" / "ignore");
  write("repo/.git/config", "[core]\n\texcludesFile =\n");
  EXPECT_EQ(excludes_file_path(&repo), std::nullopt);  // an empty value turns it off

  env.set("GIT_CONFIG_GLOBAL", (dir_ / "other").c_str());
  write("other", "[core]\nexcludesfile = /from/global/override\n");
  EXPECT_EQ(excludes_file_path(nullptr), "/from/global/override");
}

TEST_F(ExcludesFilePath, SystemConfigUnlessDisabled) {
  ScopedEnv env;
  env.set("GIT_CONFIG_NOSYSTEM", nullptr);
  env.set("GIT_CONFIG_SYSTEM", (dir_ / "system").c_str());
  env.set("GIT_CONFIG_GLOBAL", "");
  write("system", "[core]\nexcludesfile = /from/system\n");
  EXPECT_EQ(excludes_file_path(nullptr), "/from/system");
  env.set("GIT_CONFIG_NOSYSTEM", "true");
  env.set("HOME", (dir_ / "home").c_str());
  env.set("XDG_CONFIG_HOME", nullptr);
  EXPECT_EQ(excludes_file_path(nullptr), dir_ / "home" / ".config" / "git" / "ignore");
}

using FindGitRepo = TempTree;

TEST_F(FindGitRepo, FindsTheNearestRepositoryAbove) {
  write("top/.git/HEAD", "ref: refs/heads/main\n");
  write("top/a/b/file", "");
  auto repo = find_git_repo(dir_ / "top" / "a" / "b");
  ASSERT_TRUE(repo.has_value());
  EXPECT_EQ(repo->top, dir_ / "top");
  EXPECT_EQ(repo->git_dir, dir_ / "top" / ".git");
  EXPECT_EQ(repo->common_dir, dir_ / "top" / ".git");
  EXPECT_FALSE(find_git_repo(dir_).has_value());
}

TEST_F(FindGitRepo, FollowsGitdirFilesAndCommondir) {
  write("main/.git/HEAD", "ref: refs/heads/main\n");
  write("main/.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n");
  write("main/.git/worktrees/wt/commondir", "../..\n");
  write("wt/.git", "gitdir: ../main/.git/worktrees/wt\n");
  auto repo = find_git_repo(dir_ / "wt");
  ASSERT_TRUE(repo.has_value());
  EXPECT_EQ(repo->top, dir_ / "wt");
  EXPECT_EQ(repo->git_dir, dir_ / "main" / ".git" / "worktrees" / "wt");
  EXPECT_EQ(repo->common_dir, dir_ / "main" / ".git");
}

TEST_F(FindGitRepo, IgnoresADotGitWithoutHead) {
  write("fake/.git/config", "");
  EXPECT_FALSE(find_git_repo(dir_ / "fake").has_value());
}

TEST_F(TempTree, ReadIgnoreSourceReportsMissingUnreadableAndSymlinks) {
  std::string text, error;
  EXPECT_FALSE(read_ignore_source(AT_FDCWD, (dir_ / "missing").c_str(), false, &text, &error));
  EXPECT_EQ(error, "");
  write("real", "x\n");
  EXPECT_TRUE(read_ignore_source(AT_FDCWD, (dir_ / "real").c_str(), false, &text, &error));
  EXPECT_EQ(text, "x\n");
  std::filesystem::create_symlink("real", dir_ / "link");
  EXPECT_TRUE(read_ignore_source(AT_FDCWD, (dir_ / "link").c_str(), false, &text, &error));
  EXPECT_FALSE(read_ignore_source(AT_FDCWD, (dir_ / "link").c_str(), true, &text, &error));
  EXPECT_NE(error.find("symbolic link"), std::string::npos);
  std::filesystem::create_directory(dir_ / "adir");
  EXPECT_FALSE(read_ignore_source(AT_FDCWD, (dir_ / "adir").c_str(), false, &text, &error));
  EXPECT_EQ(error, "");  // git skips a directory silently
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0644), 0);
  EXPECT_FALSE(read_ignore_source(AT_FDCWD, (dir_ / "fifo").c_str(), false, &text, &error));  // no hang
  EXPECT_NE(error, "");
}

}  // namespace
}  // namespace comp::walk
