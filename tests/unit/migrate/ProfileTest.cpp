//===- ProfileTest.cpp - Tests for the profile loader ----------------------===//
//
// Each test writes a profile into a fresh temporary directory. Error tests
// change one line of a valid profile and expect the exact message, with the
// line of the problem.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/Profile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::migrate;

namespace {

/// A valid profile; line numbers matter to the error tests.
const std::string ValidProfile = R"({
  "schema": "opmig.profile/1",
  "name": "mini", "spec": "cache-dit",
  "description": "a test profile",
  "native_dir": "csrc/{{domain}}",
  "namespace": "mini::{{domain}}",
  "op_namespace": "mini_ops",
  "extension": "mini._C_{{domain}}",
  "includes": {"style": "relative-to-root", "root": "csrc"},
  "wrap_global_namespace": false,
  "provenance_comment": "// from {{upstream.repo}}",
  "required_target_files": ["setup.py"],
  "files": [
    {"path": "{{native_dir}}/{{domain}}.h", "template": "templates/binding.h.mustache"},
    {"path": "tests/test_{{op.name}}.py", "template": "templates/test.py.mustache", "per_op": true}
  ],
  "edits": [
    {"id": "init-all", "path": "pkg/__init__.py", "template": "templates/all.mustache",
     "anchor": "python:list:__all__"},
    {"id": "kernel-row", "path": "docs/kernels.md", "template": "templates/row.mustache",
     "anchor": "markdown:table:Kernels", "create_if_missing": false}
  ]
}
)";

class ProfileTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Created, Real;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-profile", Created));
    ASSERT_FALSE(llvm::sys::fs::real_path(Created, Real));
    Root = std::string(Real);
    Builtins = Root + "/profiles";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  void write(llvm::StringRef Relative, llvm::StringRef Text) {
    std::string File = Root + "/" + Relative.str();
    ASSERT_FALSE(llvm::sys::fs::create_directories(llvm::sys::path::parent_path(File)));
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC) << File;
    OS << Text;
  }

  /// Writes built-in profile `Name` with `Json` and the templates it names.
  void writeProfile(const std::string &Name, const std::string &Json) {
    std::string Dir = "profiles/" + Name + "/";
    write(Dir + "profile.json", Json);
    for (const char *Template :
         {"binding.h.mustache", "test.py.mustache", "all.mustache", "row.mustache"})
      write(Dir + "templates/" + Template, "// {{domain}}\n");
  }

  /// Writes `mini` with `From` replaced by `To` (once) in the valid profile.
  void writeVariant(const std::string &From, const std::string &To) {
    std::string Json = ValidProfile;
    size_t At = Json.find(From);
    ASSERT_NE(At, std::string::npos) << From;
    writeProfile("mini", Json.replace(At, From.size(), To));
  }

  std::string profileFile() const { return Builtins + "/mini/profile.json"; }

  /// The error of loading `mini`, or "loaded" when it loads.
  std::string loadError(const std::string &NameOrPath = "mini") {
    llvm::Expected<Profile> P = loadProfile(NameOrPath, Builtins);
    return P ? "loaded" : llvm::toString(P.takeError());
  }

  std::string Root;
  std::string Builtins;
};

TEST_F(ProfileTest, LoadsEveryField) {
  writeProfile("mini", ValidProfile);
  llvm::Expected<Profile> P = loadProfile("mini", Builtins);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Name, "mini");
  EXPECT_EQ(P->Spec, "cache-dit");
  EXPECT_EQ(P->Description, "a test profile");
  EXPECT_EQ(P->Folder, Builtins + "/mini");
  EXPECT_EQ(P->NativeDir, "csrc/{{domain}}");
  EXPECT_EQ(P->Namespace, "mini::{{domain}}");
  EXPECT_EQ(P->OpNamespace, "mini_ops");
  EXPECT_EQ(P->Extension, "mini._C_{{domain}}");
  EXPECT_EQ(P->Includes, IncludeStyle::RelativeToRoot);
  EXPECT_EQ(P->IncludeRoot, "csrc");
  EXPECT_FALSE(P->WrapGlobalNamespace);
  EXPECT_EQ(P->ProvenanceComment, "// from {{upstream.repo}}");
  ASSERT_EQ(P->RequiredTargetFiles.size(), 1u);
  EXPECT_EQ(P->RequiredTargetFiles[0].Path, "setup.py");
  EXPECT_EQ(P->RequiredTargetFiles[0].Bootstrap, "");
  ASSERT_EQ(P->Files.size(), 2u);
  EXPECT_EQ(P->Files[0].Path, "{{native_dir}}/{{domain}}.h");
  EXPECT_EQ(P->Files[0].Template, "templates/binding.h.mustache");
  EXPECT_FALSE(P->Files[0].PerOp);
  EXPECT_TRUE(P->Files[1].PerOp);
  ASSERT_EQ(P->Edits.size(), 2u);
  EXPECT_EQ(P->Edits[0].Id, "init-all");
  EXPECT_EQ(P->Edits[0].Path, "pkg/__init__.py");
  EXPECT_EQ(P->Edits[0].Template, "templates/all.mustache");
  EXPECT_EQ(P->Edits[0].Anchors, std::vector<std::string>{"python:list:__all__"});
  EXPECT_FALSE(P->Edits[0].CreateIfMissing);
  EXPECT_TRUE(P->Edits[0].Bootstrap.empty());
  EXPECT_EQ(P->Edits[1].Anchors, std::vector<std::string>{"markdown:table:Kernels"});
}

TEST_F(ProfileTest, OptionalKeysTakeTheirDefaults) {
  writeProfile("mini",
               R"({"schema": "opmig.profile/1", "name": "mini", "spec": "s", "native_dir": "n",
    "namespace": "ns", "op_namespace": "ops", "includes": {"style": "relative-to-file"},
    "provenance_comment": "// x"})");
  llvm::Expected<Profile> P = loadProfile("mini", Builtins);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Description, "");
  EXPECT_EQ(P->Extension, "");
  EXPECT_EQ(P->Includes, IncludeStyle::RelativeToFile);
  EXPECT_EQ(P->IncludeRoot, "");
  EXPECT_TRUE(P->WrapGlobalNamespace);
  EXPECT_TRUE(P->RequiredTargetFiles.empty());
  EXPECT_TRUE(P->Files.empty());
  EXPECT_TRUE(P->Edits.empty());
}

TEST_F(ProfileTest, LoadsByFilePathAndByFolderPath) {
  writeProfile("mini", ValidProfile);
  EXPECT_EQ(loadError(profileFile()), "loaded");
  EXPECT_EQ(loadError(Builtins + "/mini"), "loaded");
}

TEST_F(ProfileTest, UnknownBuiltinNameListsTheBuiltins) {
  writeProfile("beta", ValidProfile);
  writeProfile("alpha", ValidProfile);
  write("profiles/not-a-profile/README.md", "no profile.json here\n");
  EXPECT_EQ(loadError("gamma"), "unknown profile 'gamma'; built-in profiles: alpha, beta (or give "
                                "the path of a profile.json)");
}

TEST_F(ProfileTest, UnknownNameWithoutBuiltinsSaysSo) {
  EXPECT_EQ(loadError("gamma"), "unknown profile 'gamma'; built-in profiles: there are none in " +
                                    Builtins + " (or give the path of a profile.json)");
}

TEST_F(ProfileTest, MissingProfileFile) {
  EXPECT_EQ(loadError(Root + "/nowhere/profile.json"),
            "profile file " + Root + "/nowhere/profile.json does not exist");
}

TEST_F(ProfileTest, BadJsonReportsItsLine) {
  writeVariant(R"("op_namespace": "mini_ops",)", R"("op_namespace": "mini_ops",,)");
  EXPECT_EQ(loadError(), profileFile() +
                             ":7: invalid JSON: syntax error while parsing object key - "
                             "unexpected ','; expected string literal");
}

TEST_F(ProfileTest, TopLevelMustBeAnObject) {
  writeProfile("mini", "[1, 2]\n");
  EXPECT_EQ(loadError(), profileFile() + ":1:1: the profile must be a mapping");
}

TEST_F(ProfileTest, UnknownTopLevelKey) {
  writeVariant(R"("description": "a test profile",)", R"("descripton": "a test profile",)");
  EXPECT_EQ(loadError(), profileFile() +
                             ":4:3: unknown key 'descripton' in the profile; did you mean "
                             "'description'?");
}

TEST_F(ProfileTest, UnknownKeyInAnEdit) {
  writeVariant(R"("create_if_missing": false})", R"("create_if_mising": false})");
  EXPECT_EQ(loadError(), profileFile() +
                             ":21:42: unknown key 'create_if_mising' in 'edits[1]'; did you mean "
                             "'create_if_missing'?");
}

TEST_F(ProfileTest, MissingRequiredKey) {
  writeVariant(R"("namespace": "mini::{{domain}}",)", "");
  EXPECT_EQ(loadError(), profileFile() + ":1:1: missing required key 'namespace' in the profile");
}

// A profile without a spec cannot make review's layers optional: it does not
// load, and the message says what to add.
TEST_F(ProfileTest, MissingSpecSaysWhatToAdd) {
  writeVariant(R"( "spec": "cache-dit",)", "");
  EXPECT_EQ(
      loadError(),
      profileFile() +
          ":1:1: missing required key 'spec' in the profile: add the spec convention the profile "
          "follows, e.g. \"spec\": \"cache-dit\" (the specs are listed under "
          "`specs:` in rules/review/validation-layers.yaml); it decides which "
          "validation layers opmig review requires");
}

TEST_F(ProfileTest, SpecMustBeKebabCase) {
  writeVariant(R"("spec": "cache-dit")", R"("spec": "Cache DiT")");
  EXPECT_EQ(loadError(),
            profileFile() + ":3:19: 'spec': 'Cache DiT' must be kebab-case (a-z, 0-9, '-')");
  writeVariant(R"("spec": "cache-dit")", R"("spec": 1)");
  EXPECT_EQ(loadError(), profileFile() + ":3:19: 'spec' must be a string");
}

TEST_F(ProfileTest, MissingKeyInAFileEntry) {
  writeVariant(R"({"path": "{{native_dir}}/{{domain}}.h", )", "{");
  EXPECT_EQ(loadError(), profileFile() + ":14:5: missing required key 'path' in 'files[0]'");
}

TEST_F(ProfileTest, DuplicateJsonKey) {
  writeVariant(R"("wrap_global_namespace": false,)",
               R"("wrap_global_namespace": false, "name": "other",)");
  EXPECT_EQ(loadError(), profileFile() + ":10:35: duplicate key 'name'");
}

TEST_F(ProfileTest, WrongTypes) {
  writeVariant(R"("per_op": true)", R"("per_op": "yes")");
  EXPECT_EQ(loadError(), profileFile() + ":15:85: 'files[1].per_op' must be true or false");
  writeVariant(R"("name": "mini")", R"("name": 3)");
  EXPECT_EQ(loadError(), profileFile() + ":3:3: 'name' must be a string");
  writeVariant(R"({"path": "{{native_dir}}/{{domain}}.h")", R"({"path": ["a"])");
  EXPECT_EQ(loadError(), profileFile() + ":14:6: 'files[0].path' must be a string");
}

TEST_F(ProfileTest, ListMustBeAList) {
  writeVariant(R"("required_target_files": ["setup.py"],)", R"("required_target_files": "x",)");
  EXPECT_EQ(loadError(), profileFile() + ":12:3: 'required_target_files' must be a list");
}

TEST_F(ProfileTest, RequiredTargetFilesStayInsideTheTarget) {
  writeVariant(R"(["setup.py"])", R"(["setup.py", "../x"])");
  EXPECT_EQ(loadError(),
            profileFile() + ":12:41: 'required_target_files[1]' must be a relative path inside the "
                            "target");
}

TEST_F(ProfileTest, WrongSchema) {
  writeVariant("opmig.profile/1", "opmig.profile/2");
  EXPECT_EQ(loadError(),
            profileFile() +
                ":2:3: unsupported schema 'opmig.profile/2' (expected 'opmig.profile/1')");
}

TEST_F(ProfileTest, NameMustBeKebabCase) {
  writeVariant(R"("name": "mini")", R"("name": "Mini_Profile")");
  EXPECT_EQ(loadError(),
            profileFile() + ":3:3: 'name': 'Mini_Profile' must be kebab-case (a-z, 0-9, '-')");
}

TEST_F(ProfileTest, BadIncludeStyle) {
  writeVariant("relative-to-root", "relative");
  EXPECT_EQ(loadError(), profileFile() + ":9:16: 'includes.style': 'relative' is neither "
                                         "'relative-to-root' nor 'relative-to-file'");
}

TEST_F(ProfileTest, RelativeToRootNeedsARoot) {
  writeVariant(R"(, "root": "csrc"})", "}");
  EXPECT_EQ(loadError(),
            profileFile() + ":9:3: 'includes' needs a 'root' for style 'relative-to-root'");
}

TEST_F(ProfileTest, MissingTemplateFile) {
  writeVariant("templates/row.mustache", "templates/rows.mustache");
  EXPECT_EQ(loadError(), profileFile() + ":20:53: 'edits[1].template': no such template file " +
                             Builtins + "/mini/templates/rows.mustache");
}

TEST_F(ProfileTest, TemplatePathMayNotEscapeTheFolder) {
  writeVariant("templates/all.mustache", "../outside.mustache");
  write("profiles/outside.mustache", "x\n");
  EXPECT_EQ(loadError(), profileFile() + ":18:51: 'edits[0].template': '../outside.mustache' must "
                                         "be a relative path inside the profile folder");
  writeVariant("templates/all.mustache", Root + "/abs.mustache");
  EXPECT_EQ(loadError(), profileFile() + ":18:51: 'edits[0].template': '" + Root +
                             "/abs.mustache' must be a relative path inside the profile folder");
}

TEST_F(ProfileTest, TemplateSymlinkMayNotEscapeTheFolder) {
  writeVariant("templates/all.mustache", "templates/linked.mustache");
  write("elsewhere.mustache", "x\n");
  ASSERT_FALSE(llvm::sys::fs::create_link(Root + "/elsewhere.mustache",
                                          Builtins + "/mini/templates/linked.mustache"));
  EXPECT_EQ(loadError(), profileFile() + ":18:51: 'edits[0].template': 'templates/linked.mustache' "
                                         "leads outside the profile folder through a symlink");
}

TEST_F(ProfileTest, TemplateSyntaxErrorNamesTheTemplateAndLine) {
  writeProfile("mini", ValidProfile);
  write("profiles/mini/templates/all.mustache", "{{#ops}}\n\"{{name}}\",\n");
  EXPECT_EQ(loadError(),
            Builtins + "/mini/templates/all.mustache:1: section 'ops' is never closed");
}

TEST_F(ProfileTest, TemplateStringSyntaxError) {
  writeVariant(R"("csrc/{{domain}}")", R"("csrc/{{domain")");
  EXPECT_EQ(loadError(), profileFile() + ":5:3: 'native_dir': '{{' is never closed");
}

TEST_F(ProfileTest, DuplicateEditIds) {
  writeVariant(R"("id": "kernel-row")", R"("id": "init-all")");
  EXPECT_EQ(loadError(),
            profileFile() + ":20:6: 'edits[1].id': id 'init-all' is used twice (first at line 18)");
}

TEST_F(ProfileTest, EditIdMustBeKebabCase) {
  writeVariant(R"("id": "init-all")", R"("id": "init_all")");
  EXPECT_EQ(loadError(),
            profileFile() + ":18:6: 'edits[0].id': 'init_all' must be kebab-case (a-z, 0-9, '-')");
}

const std::string AnchorList =
    " (anchors: end, python:after-imports, python:list:NAME, python:function-list:FUNC, "
    "python:function-end:FUNC, python:before-def:NAME, python:before-call:NAME, "
    "python:call-end:NAME, python:collection:NAME, python:list-with:TEXT, "
    "markdown:table:HEADING, markdown:tree:FOLDER/)";

TEST_F(ProfileTest, UnknownAnchorKind) {
  writeVariant("python:list:__all__", "python:dict:__all__");
  EXPECT_EQ(loadError(), profileFile() +
                             ":19:6: 'edits[0].anchor': 'python:dict:__all__': unknown "
                             "python anchor" +
                             AnchorList);
  writeVariant("python:list:__all__", "start");
  EXPECT_EQ(loadError(),
            profileFile() + ":19:6: 'edits[0].anchor': 'start': unknown anchor kind" + AnchorList);
}

TEST_F(ProfileTest, AnchorNeedsAName) {
  writeVariant("python:list:__all__", "python:list:");
  EXPECT_EQ(loadError(), profileFile() +
                             ":19:6: 'edits[0].anchor': 'python:list:': "
                             "'python:list:' needs a Python name or a pattern of one" +
                             AnchorList);
  writeVariant("markdown:table:Kernels", "markdown:table:");
  EXPECT_EQ(loadError(), profileFile() +
                             ":21:6: 'edits[1].anchor': 'markdown:table:': "
                             "'markdown:table:' needs a heading" +
                             AnchorList);
}

TEST_F(ProfileTest, TreeAnchorNeedsAFolder) {
  writeVariant("markdown:table:Kernels", "markdown:tree:veomni/ops");
  EXPECT_EQ(loadError(), profileFile() +
                             ":21:6: 'edits[1].anchor': 'markdown:tree:veomni/ops': "
                             "'markdown:tree:' needs a folder path ending in '/', such as "
                             "veomni/ops/" +
                             AnchorList);
}

TEST_F(ProfileTest, AnchorMustSuitTheFileType) {
  writeVariant("docs/kernels.md", "docs/kernels.py");
  EXPECT_EQ(loadError(), profileFile() +
                             ":21:6: 'edits[1].anchor': 'markdown:table:Kernels': "
                             "markdown anchors need a .md file" +
                             AnchorList);
  writeVariant("pkg/__init__.py", "pkg/init.txt");
  EXPECT_EQ(loadError(), profileFile() +
                             ":19:6: 'edits[0].anchor': 'python:list:__all__': python "
                             "anchors need a .py file" +
                             AnchorList);
}

TEST_F(ProfileTest, EditPathNeedsACommentSyntax) {
  writeVariant(R"("pkg/__init__.py", "template": "templates/all.mustache",
     "anchor": "python:list:__all__")",
               R"("pkg/data.json", "template": "templates/all.mustache",
     "anchor": "end")");
  EXPECT_EQ(loadError(), profileFile() + ":18:24: 'edits[0].path': no comment syntax is known for "
                                         "'pkg/data.json', so its block cannot be marked");
}

TEST_F(ProfileTest, CreateIfMissingNeedsAStandaloneAnchor) {
  writeVariant(R"("anchor": "python:list:__all__"})",
               R"("anchor": "python:list:__all__", "create_if_missing": true})");
  EXPECT_EQ(loadError(), profileFile() + ":19:39: 'edits[0].create_if_missing': a block at anchor "
                                         "'python:list:__all__' cannot stand alone as a new "
                                         "file's content");
}

TEST_F(ProfileTest, AnchorsMayBeAlternativesAndPatterns) {
  writeVariant(R"("anchor": "python:list:__all__")",
               R"("anchor": ["python:list-with:pkg._*", "python:collection:_get_*_extension"])");
  llvm::Expected<Profile> P = loadProfile("mini", Builtins);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Edits[0].Anchors, (std::vector<std::string>{"python:list-with:pkg._*",
                                                           "python:collection:_get_*_extension"}));
  writeVariant(R"("anchor": "python:list:__all__")", R"("anchor": [])");
  EXPECT_EQ(loadError(), profileFile() + ":19:6: 'edits[0].anchor' must be a string or a non-empty "
                                         "list of strings");
  writeVariant(R"("anchor": "python:list:__all__")",
               R"("anchor": ["python:list:__all__", "python:list:a-b"])");
  EXPECT_EQ(loadError(), profileFile() +
                             ":19:6: 'edits[0].anchor': 'python:list:a-b': 'python:list:' needs a "
                             "Python name or a pattern of one" +
                             AnchorList);
}

TEST_F(ProfileTest, ReadsBootstrapStepsAndRequiredFileTemplates) {
  std::string Json = ValidProfile;
  auto Replace = [&](const std::string &From, const std::string &To) {
    Json.replace(Json.find(From), From.size(), To);
  };
  Replace(
      R"("required_target_files": ["setup.py"])",
      R"("required_target_files": ["setup.py", {"path": "tests/guard.py", "bootstrap": "templates/row.mustache"}])");
  Replace(R"("anchor": "python:list:__all__"})",
          R"("anchor": "python:list:__all__",
     "bootstrap": [{"anchor": ["python:after-imports", "end"], "template": "templates/all.mustache"}]})");
  writeProfile("mini", Json);
  llvm::Expected<Profile> P = loadProfile("mini", Builtins);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->RequiredTargetFiles.size(), 2u);
  EXPECT_EQ(P->RequiredTargetFiles[1].Path, "tests/guard.py");
  EXPECT_EQ(P->RequiredTargetFiles[1].Bootstrap, "templates/row.mustache");
  ASSERT_EQ(P->Edits[0].Bootstrap.size(), 1u);
  EXPECT_EQ(P->Edits[0].Bootstrap[0].Anchors,
            (std::vector<std::string>{"python:after-imports", "end"}));
  EXPECT_EQ(P->Edits[0].Bootstrap[0].Template, "templates/all.mustache");

  writeProfile("mini", std::string(Json).replace(Json.find("templates/all.mustache\"}"), 22,
                                                 "templates/none.mustache"));
  EXPECT_EQ(loadError(), profileFile() +
                             ":20:64: 'edits[0].bootstrap[0].template': no such template "
                             "file " +
                             Builtins + "/mini/templates/none.mustache");
}

} // namespace
