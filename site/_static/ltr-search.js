/* The search results' snippets: Sphinx cuts them from the page's text, which holds the "how to run" box,
   the language switch and the formulas' TeX source (MathJax typesets it only in the browser that shows
   the page). Leave those out, as Sphinx itself leaves out scripts and styles. */
(() => {
  const pageText = Search.htmlToText;
  const notProse = [".ltr-run", ".ltr-switch", ".math", "mjx-container", ".cell_input", ".cell_output"];
  Search.htmlToText = (htmlString, anchor) => {
    const page = new DOMParser().parseFromString(htmlString, "text/html");
    page.querySelectorAll(notProse.join(",")).forEach((element) => element.remove());
    return pageText(page.documentElement.outerHTML, anchor);
  };
})();
