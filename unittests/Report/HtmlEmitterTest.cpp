//===- HtmlEmitterTest.cpp - HTML on hand-built findings ------------------===//
#include "ReportTestUtil.h"

using namespace cuda_advisor;
using namespace cuda_advisor::report;
using namespace cuda_advisor::report::test;

namespace {

std::string html(llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  return render(emitHtml, Findings, Ctx);
}

size_t count(llvm::StringRef Text, llvm::StringRef What) { return Text.count(What); }

TEST(HtmlEmitterTest, SelfContainedRankedPage) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  ReportContext Ctx;
  Ctx.SourceRoot = Dir.Path;
  Ctx.Sources.push_back(File);
  Ctx.Summary = seedSummary();
  std::string Out = html({gridFinding(File), copyFinding(File), runtimeFinding()}, Ctx);
  EXPECT_EQ(Out.find("<!DOCTYPE html>\n<html lang=\"en\">"), 0u);
  EXPECT_NE(Out.find("</html>\n"), std::string::npos);
  // Nothing to fetch and nothing to run.
  for (const char *External : {"<script", "<link", "src=", "@import", "url("})
    EXPECT_EQ(Out.find(External), std::string::npos) << External;
  EXPECT_EQ(count(Out, "<style>"), 1u);
  EXPECT_NE(Out.find("<p class=\"summary\">GPU busy 412 ms of 1.2 s; 2 findings could save "
                     "about 290 ms</p>"),
            std::string::npos);
  // Table rows in saving order, the largest saving with the full bar.
  size_t Runtime = Out.find("<td>100 host-to-device copies");
  size_t Copy = Out.find("<td>cudaMemcpy runs on every iteration");
  size_t Grid = Out.find("<td>grid of n / 256 blocks");
  ASSERT_NE(Runtime, std::string::npos);
  EXPECT_LT(Runtime, Copy);
  EXPECT_LT(Copy, Grid);
  EXPECT_NE(Out.find("255 ms<span class=\"bar\" style=\"width:100%\"></span>"), std::string::npos);
  EXPECT_NE(Out.find("34.8 ms<span class=\"bar\" style=\"width:14%\"></span>"), std::string::npos);
  EXPECT_NE(Out.find("<td>not seen in the profile</td>"), std::string::npos);
  // Sections: snippet with the range marked and escaped, note, fix as diff.
  EXPECT_NE(Out.find("<section class=\"finding\" id=\"f3\">"), std::string::npos);
  EXPECT_NE(Out.find("<span class=\"ln\">    6  </span>\tadd&lt;&lt;&lt;<mark>n / 256</mark>, "
                     "256&gt;&gt;&gt;(d, n);\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("inside this loop at <code>a.cu:4:3</code>"), std::string::npos);
  EXPECT_NE(Out.find("<span class=\"del\">- \tadd&lt;&lt;&lt;n / 256, 256&gt;&gt;&gt;(d, n);</span>"
                     "<span class=\"ins\">+ \tadd&lt;&lt;&lt;(n + 255) / 256, 256&gt;&gt;&gt;(d, "
                     "n);</span>"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("No source location (found in the profile)."), std::string::npos);
}

TEST(HtmlEmitterTest, EscapesEverythingItShows) {
  TempDir Dir;
  std::string Source = "if (a < b && c > \"d\") f('e');\n";
  std::string File = Dir.write("x&y.cu", Source);
  Finding F;
  F.CheckId = "x<y>";
  F.Message = "<img src=x onerror=alert(1)> & \"q\" 'r'";
  F.Loc = at(File, Source, 1, 1);
  F.Notes.push_back({at(File, Source, 1, 5), "<b>note</b>"});
  ReportContext Ctx;
  Ctx.SourceRoot = Dir.Path;
  Ctx.Errors.push_back({Dir.file("<bad>.cu"), "cannot <read>"});
  std::string Out = html({F}, Ctx);
  EXPECT_EQ(Out.find("<img"), std::string::npos);
  EXPECT_EQ(Out.find("<b>"), std::string::npos);
  EXPECT_EQ(Out.find("<bad>"), std::string::npos);
  EXPECT_EQ(Out.find("x<y>"), std::string::npos);
  EXPECT_NE(Out.find("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;r&#39;"),
            std::string::npos);
  EXPECT_NE(Out.find("if (a &lt; b &amp;&amp; c &gt; &quot;d&quot;) f(&#39;e&#39;);"),
            std::string::npos);
  EXPECT_NE(Out.find("<code>x&amp;y.cu:1:1</code>"), std::string::npos);
  EXPECT_NE(Out.find("<code>&lt;bad&gt;.cu</code>: cannot &lt;read&gt;"), std::string::npos);
}

} // namespace
