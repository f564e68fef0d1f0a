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
  // Table rows in saving order, each with a bar of its share of the total
  // saving (290 ms).
  size_t Runtime = Out.find("<td>100 host-to-device copies");
  size_t Copy = Out.find("<td>cudaMemcpy runs on every iteration");
  size_t Grid = Out.find("<td>grid of n / 256 blocks");
  ASSERT_NE(Runtime, std::string::npos);
  EXPECT_LT(Runtime, Copy);
  EXPECT_LT(Copy, Grid);
  EXPECT_NE(Out.find("255 ms<span class=\"bar\" style=\"width:88%\" title=\"88% of the total "
                     "estimated saving\"></span>"),
            std::string::npos);
  EXPECT_NE(Out.find("34.8 ms<span class=\"bar\" style=\"width:12%\" title=\"12% of the total "
                     "estimated saving\"></span>"),
            std::string::npos);
  // No profile timeline was given: no timeline, no links to it.
  EXPECT_EQ(Out.find("timeline"), std::string::npos);
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

TEST(HtmlEmitterTest, TimelineFromTheChartItIsGiven) {
  // A hand-made chart: one panel, a host row and a stream, a finding's mark.
  TimelineChart Chart;
  Chart.Columns = 1000;
  TimelinePanel P;
  P.Title = "./app </script><script>alert(1)</script>";
  P.Pid = 7;
  P.Span = 1000000;
  P.ViewEnd = 1000000;
  TimelineRow Host;
  Host.Label = "host";
  Host.Host = true;
  TimelineBar Launch;
  Launch.Start = 100000;
  Launch.End = 101000;
  Launch.Kind = BarKind::ApiLaunch;
  Launch.Label = "cudaLaunchKernel";
  Launch.Site = {"/src/a.cu", 12, 3};
  Host.Bars.push_back(Launch);
  TimelineRow Stream;
  Stream.Label = "GPU 0 stream <7>";
  TimelineBar K;
  K.Start = 200000;
  K.End = 700000;
  K.Kind = BarKind::Kernel;
  K.Label = "k</script><b>";
  Stream.Bars.push_back(K);
  TimelineBar Dense = K;
  Dense.Start = 800000;
  Dense.End = 900000;
  Dense.Count = 40;
  Dense.BusyNs = 20000;
  Dense.Label = "40\xC3\x97 k";
  Stream.Bars.push_back(Dense);
  P.Rows = {Host, Stream};
  P.Idle.push_back({0, 0, 200000});
  Chart.Panels.push_back(P);
  Chart.Findings.push_back({{0, 1, 200000, 700000}});
  Finding F = runtimeFinding();
  F.Ranking->Highlight = 0;
  ReportContext Ctx;
  Ctx.SourceRoot = "/src";
  Ctx.Summary = seedSummary();
  Ctx.Timeline = Chart;
  std::string Out = html({F}, Ctx);
  // The finding's row and the timeline link to each other.
  EXPECT_NE(Out.find("<tr data-finding=\"0\">"), std::string::npos);
  EXPECT_NE(Out.find("<a class=\"tl-show\" href=\"#timeline\" data-finding=\"0\""),
            std::string::npos);
  EXPECT_NE(Out.find("<g class=\"tl-mark\" data-finding=\"0\"><g data-row=\"1\" "
                     "transform=\"translate(0,43)\"><rect data-t=\"200000\" data-d=\"500000\"/>"
                     "</g></g>"),
            std::string::npos)
      << Out;
  // Pixels of the first view (1000 columns for 1 ms) and exact times.
  EXPECT_NE(Out.find("<rect class=\"al\" x=\"270.0\" width=\"1.0\" data-t=\"100000\" "
                     "data-d=\"1000\" data-n=\"1\"/>"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("<rect class=\"k\" x=\"370.0\" width=\"500.0\""), std::string::npos);
  // The density bar: paler (a fifth busy), with its count and busy time.
  EXPECT_NE(Out.find("<rect class=\"k d1\" x=\"970.0\" width=\"100.0\" data-t=\"800000\" "
                     "data-d=\"100000\" data-n=\"3\" data-c=\"40\" data-b=\"20000\"/>"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("<g class=\"tl-idle\"><rect x=\"170.0\" width=\"200.0\" data-t=\"0\" "
                     "data-d=\"200000\" y=\"42\" height=\"20\" data-n=\"0\"/></g>"),
            std::string::npos)
      << Out;
  // Names are escaped in the page and cannot end the script.
  EXPECT_EQ(Out.find("<script>alert"), std::string::npos);
  EXPECT_EQ(Out.find("<b>"), std::string::npos);
  EXPECT_NE(Out.find("GPU 0 stream &lt;7&gt;"), std::string::npos);
  EXPECT_EQ(count(Out, "<script>"), 1u);
  EXPECT_EQ(count(Out, "</script>"), 1u);
  EXPECT_NE(Out.find("[\"GPU 0 idle\",\"cudaLaunchKernel\\na.cu:12\",\"k\\u003c/script>\\u003cb>\""),
            std::string::npos)
      << Out;
}

} // namespace
