"""check_html.py FILE [--scripts N]: the page is one well-formed, self-contained document.

Every non-void element is closed in order, there is exactly one <style> and
N inline <script> elements (default 0; the timeline of a profiled run has
one), no external resource (src=, href= other than #fragments, <link>,
url() other than url(#fragment), @import), and no inline event handler.
Prints "ok" or the problems.
"""
import re
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "source"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.styles, self.scripts = [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        if tag in ("link", "iframe", "object", "embed", "img"):
            self.problems.append("<%s> element" % tag)
        if tag == "script":
            self.scripts += 1
        if tag == "style":
            self.styles += 1
        for name, value in attrs:
            if name.startswith("on") or name == "src":
                self.problems.append("%s= attribute on <%s>" % (name, tag))
            if "url(" in (value or "") and not re.search(r"url\(#[\w-]+\)", value):
                self.problems.append("external url() in %s= on <%s>" % (name, tag))
            if name == "href" and not (value or "").startswith("#"):
                self.problems.append("external href %r" % value)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.problems.append("</%s> at %s closes %s" % (tag, self.getpos(), self.stack[-1:]))
            return
        self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1][0] == "style" and ("url(" in data or "@import" in data):
            self.problems.append("external resource in <style>")
        if self.stack and self.stack[-1][0] == "script":
            for what in ("fetch(", "XMLHttpRequest", "import(", "WebSocket", "https://"):
                if what in data:
                    self.problems.append("the script reaches out: %s" % what)


with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
c = Checker()
c.feed(text)
c.close()
if c.stack:
    c.problems.append("unclosed: %s" % c.stack)
if c.styles != 1:
    c.problems.append("%d <style> elements" % c.styles)
want_scripts = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--scripts" else 0
if c.scripts != want_scripts:
    c.problems.append("%d <script> elements, expected %d" % (c.scripts, want_scripts))
if not text.startswith("<!DOCTYPE html>"):
    c.problems.append("no doctype")
print("\n".join(c.problems) if c.problems else "ok")
sys.exit(1 if c.problems else 0)
