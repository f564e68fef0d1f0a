"""check_html.py FILE: the page is one well-formed, self-contained document.

Every non-void element is closed in order, there is exactly one <style> and
no script, no external resource (src=, href= other than #fragments, <link>,
url(), @import), and no inline event handler. Prints "ok" or the problems.
"""
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "source"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.styles = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "link", "iframe", "object", "embed", "img"):
            self.problems.append("<%s> element" % tag)
        if tag == "style":
            self.styles += 1
        for name, value in attrs:
            if name.startswith("on") or name == "src":
                self.problems.append("%s= attribute on <%s>" % (name, tag))
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


with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
c = Checker()
c.feed(text)
c.close()
if c.stack:
    c.problems.append("unclosed: %s" % c.stack)
if c.styles != 1:
    c.problems.append("%d <style> elements" % c.styles)
if not text.startswith("<!DOCTYPE html>"):
    c.problems.append("no doctype")
print("\n".join(c.problems) if c.problems else "ok")
sys.exit(1 if c.problems else 0)
