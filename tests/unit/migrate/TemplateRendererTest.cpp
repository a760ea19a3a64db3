//===- TemplateRendererTest.cpp - Tests for the Mustache subset ------------===//
//
// One feature or one error per test, with the exact output expected.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/TemplateRenderer.h"

#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::migrate;
using nlohmann::json;

namespace {

/// The rendered text, or "ERROR: message" so a test can compare either.
std::string render(const std::string &Template, const json &Context) {
  llvm::Expected<std::string> Out = renderTemplate(Template, Context, "t.mustache");
  return Out ? *Out : "ERROR: " + llvm::toString(Out.takeError());
}

const json OpsContext = json::parse(R"({
  "domain": "attn",
  "ops": [
    {"name": "merge", "first": true, "last": false, "params": ["a", "b"]},
    {"name": "split", "first": false, "last": true, "params": []}
  ],
  "upstream": {"repo": "org/repo", "commit": "abc123", "dirty": false}
})");

TEST(TemplateRendererTest, SubstitutesNamesAndDottedPaths) {
  EXPECT_EQ(render("ns {{domain}} from {{upstream.repo}}@{{ upstream.commit }}\n", OpsContext),
            "ns attn from org/repo@abc123\n");
}

TEST(TemplateRendererTest, RendersScalarsAsText) {
  json Context = {{"n", 3}, {"x", 1.5}, {"yes", true}, {"nothing", nullptr}};
  EXPECT_EQ(render("{{n}} {{x}} {{yes}} [{{nothing}}]", Context), "3 1.5 true []");
}

TEST(TemplateRendererTest, RepeatsSectionPerElementWithElementNamesFirst) {
  EXPECT_EQ(render("{{#ops}}{{name}}/{{domain}};{{/ops}}", OpsContext), "merge/attn;split/attn;");
}

TEST(TemplateRendererTest, DotIsTheCurrentElement) {
  EXPECT_EQ(render("{{#ops}}{{name}}({{#params}}{{.}} {{/params}}) {{/ops}}", OpsContext),
            "merge(a b ) split() ");
}

TEST(TemplateRendererTest, SectionOnBoolAndStringRendersOnceWhenTruthy) {
  json Context = {{"on", true}, {"off", false}, {"text", "x"}, {"empty", ""}};
  EXPECT_EQ(render("{{#on}}A{{/on}}{{#off}}B{{/off}}{{#text}}C{{.}}{{/text}}{{#empty}}D{{/empty}}",
                   Context),
            "ACx");
}

TEST(TemplateRendererTest, SectionOnObjectPushesIt) {
  EXPECT_EQ(render("{{#upstream}}{{repo}}{{/upstream}}", OpsContext), "org/repo");
}

TEST(TemplateRendererTest, InvertedSectionRendersForFalseEmptyAndMissing) {
  json Context = {{"off", false}, {"none", json::array()}, {"on", true}};
  EXPECT_EQ(render("{{^off}}1{{/off}}{{^none}}2{{/none}}{{^missing}}3{{/missing}}{{^on}}4{{/on}}",
                   Context),
            "123");
}

TEST(TemplateRendererTest, SeparatorsFromFirstAndLast) {
  EXPECT_EQ(render("[{{#ops}}{{name}}{{^last}}, {{/last}}{{/ops}}]", OpsContext), "[merge, split]");
}

TEST(TemplateRendererTest, CommentsRenderNothing) {
  EXPECT_EQ(render("a{{! a comment }}b", OpsContext), "ab");
}

TEST(TemplateRendererTest, StandaloneTagLinesLeaveNoBlankLines) {
  std::string Template = "__all__ = [\n"
                         "{{! one entry per op }}\n"
                         "    {{#ops}}\n"
                         "    \"{{name}}\",\n"
                         "    {{/ops}}\n"
                         "]\n";
  EXPECT_EQ(render(Template, OpsContext), "__all__ = [\n"
                                          "    \"merge\",\n"
                                          "    \"split\",\n"
                                          "]\n");
}

TEST(TemplateRendererTest, StandaloneTagsOnFirstAndLastLines) {
  EXPECT_EQ(render("{{#ops}}\n{{name}}\n{{/ops}}", OpsContext), "merge\nsplit\n");
}

TEST(TemplateRendererTest, ConsecutiveStandaloneLines) {
  EXPECT_EQ(
      render("x\n{{#ops}}\n  {{#first}}\nfirst={{name}}\n  {{/first}}\n{{/ops}}\ny\n", OpsContext),
      "x\nfirst=merge\ny\n");
}

TEST(TemplateRendererTest, TagsSharingALineWithTextAreNotStandalone) {
  EXPECT_EQ(render("a {{#ops}}\n{{name}}{{/ops}} b\n", OpsContext), "a \nmerge\nsplit b\n");
}

TEST(TemplateRendererTest, VariableAloneOnItsLineKeepsTheLine) {
  json Context = {{"empty", ""}};
  EXPECT_EQ(render("a\n{{empty}}\nb\n", Context), "a\n\nb\n");
}

TEST(TemplateRendererTest, UnknownNameIsAnErrorWithLine) {
  EXPECT_EQ(render("line one\n{{domian}}\n", OpsContext),
            "ERROR: t.mustache:2: unknown name 'domian'");
}

TEST(TemplateRendererTest, UnknownDottedComponentIsAnError) {
  EXPECT_EQ(render("{{upstream.branch}}", OpsContext),
            "ERROR: t.mustache:1: unknown name 'upstream.branch'");
}

TEST(TemplateRendererTest, UnknownSectionNameIsAnError) {
  EXPECT_EQ(render("\n\n{{#opz}}x{{/opz}}", OpsContext), "ERROR: t.mustache:3: unknown name 'opz'");
}

TEST(TemplateRendererTest, ListAsValueIsAnError) {
  EXPECT_EQ(render("{{ops}}", OpsContext),
            "ERROR: t.mustache:1: 'ops' is a list, not a value (use a section)");
}

TEST(TemplateRendererTest, UnclosedSectionIsAnError) {
  EXPECT_EQ(render("a\n{{#ops}}\n{{name}}\n", OpsContext),
            "ERROR: t.mustache:2: section 'ops' is never closed");
}

TEST(TemplateRendererTest, MismatchedCloseIsAnError) {
  EXPECT_EQ(render("{{#ops}}\n{{#params}}\n{{/ops}}\n", OpsContext),
            "ERROR: t.mustache:3: '{{/ops}}' closes section 'params' opened at line 2");
}

TEST(TemplateRendererTest, StrayCloseIsAnError) {
  EXPECT_EQ(render("x{{/ops}}", OpsContext),
            "ERROR: t.mustache:1: '{{/ops}}' closes no open section");
}

TEST(TemplateRendererTest, UnclosedTagIsAnError) {
  EXPECT_EQ(render("a\nb {{name", OpsContext), "ERROR: t.mustache:2: '{{' is never closed");
}

TEST(TemplateRendererTest, UnsupportedTagsAreErrors) {
  EXPECT_EQ(render("{{{domain}}}", OpsContext),
            "ERROR: t.mustache:1: unsupported tag '{{{domain}}' (no escaping, partials or "
            "delimiter changes)");
  EXPECT_EQ(render("{{> part}}", OpsContext),
            "ERROR: t.mustache:1: unsupported tag '{{> part}}' (no escaping, partials or "
            "delimiter changes)");
}

TEST(TemplateRendererTest, InvalidNamesAreErrors) {
  EXPECT_EQ(render("{{a b}}", OpsContext), "ERROR: t.mustache:1: invalid name in tag '{{a b}}'");
  EXPECT_EQ(render("{{#.}}{{/.}}", OpsContext),
            "ERROR: t.mustache:1: invalid name in tag '{{#.}}'");
  EXPECT_EQ(render("{{}}", OpsContext), "ERROR: t.mustache:1: empty tag '{{}}'");
}

TEST(TemplateRendererTest, NoEscaping) {
  json Context = {{"code", "a < b && \"c\""}};
  EXPECT_EQ(render("{{code}}", Context), "a < b && \"c\"");
}

} // namespace
