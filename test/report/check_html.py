#!/usr/bin/env python3
"""check_html.py PAGE.html - fails (exit 1, saying why) unless the report PAGE is
self-contained and holds only the markup the report writes itself:

  * every element is one of the report's own (a string from a results file that was not
    escaped would add a <script>, <b>, <img> or a comment);
  * no <script> and no event-handler attribute (on...=), so nothing runs;
  * nothing is fetched: no src=, no <link>, no url(...) or @import in styles, and every
    href is an anchor within the page (#...).
"""
import sys
from html.parser import HTMLParser

ALLOWED = {
    "html", "head", "meta", "title", "style", "body", "header", "nav", "section", "h1", "h2", "h3", "p", "b",
    "code", "pre", "a", "ul", "li", "table", "tr", "th", "td", "details", "summary", "div",
    "svg", "rect", "text", "line", "circle", "polyline",
}


class Check(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems = []
        self.counts = {}
        self.in_style = False

    def handle_starttag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag not in ALLOWED:
            self.problems.append("element <%s> is not one the report writes" % tag)
        self.in_style = tag == "style"
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append("<%s> has an event handler %s" % (tag, name))
            if name == "src":
                self.problems.append("<%s> fetches %s" % (tag, value))
            if name == "href" and not (value or "").startswith("#"):
                self.problems.append("<%s> links outside the page: %s" % (tag, value))

    def handle_endtag(self, tag):
        self.in_style = False

    def handle_data(self, data):
        if self.in_style and ("url(" in data or "@import" in data):
            self.problems.append("the styles fetch something (url( or @import)")

    def handle_comment(self, data):
        self.problems.append("a comment in the page: <!--%s-->" % data[:60])


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    c = Check()
    c.feed(text)
    c.close()
    if "<link" in text:
        c.problems.append("a <link> element")
    if not text.startswith("<!DOCTYPE html>"):
        c.problems.append("no <!DOCTYPE html> first")
    for p in c.problems[:20]:
        print("check_html: %s: %s" % (sys.argv[1], p))
    if not c.problems:
        print("check_html: %s: %d elements, %d svg charts, all the report's own" % (
            sys.argv[1], sum(c.counts.values()), c.counts.get("svg", 0)))
    sys.exit(1 if c.problems else 0)


if __name__ == "__main__":
    main()
