/* The course website's self-tests: an lt.ask question answered on the page, without a kernel.
 *
 * Every verdict shown here is the course checker's, computed when the site was built
 * (ltr_teach/teaching/self_test.py) and carried in the form's JSON. This script only reads what the
 * student typed (a fraction, a decimal, a percentage, or a ranking of whole grades), writes it in the
 * canonical form the table is keyed by, and looks it up: no formula of a metric lives here.
 * No framework, no network: it works from file:// as from a server.
 */
(function () {
  "use strict";

  var ANSWER = "\u27e6answer\u27e7";

  function escapeHtml(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }

  /* What an input method types, mapped onto ASCII as the checker's reader does (answers.normalise,
   * strip_sentence): full-width forms (NFKC), the ideographic full stop, the Unicode minus, a leading
   * "about", trailing sentence punctuation, spaces. */
  function normalise(text) {
    var t = String(text).normalize("NFKC")
      .replace(/[\u3002\uff61]/g, ".").replace(/[\u2212\u2013\u2014\u2010\u2011\ufe63]/g, "-")
      .replace(/[\u3001\uff64]/g, ",").trim();
    t = t.replace(/^(?:约为|大约|约|approximately|approx\.?|about|≈|~|∼|≃)\s*/i, "");
    t = t.replace(/[\s.,;:!?]+$/, "");
    return t.replace(/\s+/g, "");
  }

  function gcd(a, b) {
    while (b !== 0n) { var r = a % b; a = b; b = r; }
    return a < 0n ? -a : a;
  }

  /* The table's key for a typed number, or null when the page cannot read it:
   * {key, significant, decimal} (see self_test.canonical_decimal and canonical_fraction). */
  function readNumber(text) {
    var m = /^([+-]?)(\d*)\.(\d+)(%?)$/.exec(text) || /^([+-]?)(\d+)()(%)$/.exec(text);
    if (m) {
      var digits = m[2] + m[3];
      var places = m[3].length + (m[4] ? 2 : 0);
      var numerator = BigInt(digits) * (m[1] === "-" ? -1n : 1n);
      var negative = numerator < 0n, size = negative ? -numerator : numerator;
      var scale = 10n ** BigInt(places);
      var frac = (size % scale).toString().padStart(places, "0");
      var key = (negative ? "-" : "") + (size / scale).toString() + "." + frac;
      var significant = Math.max(digits.replace(/^0+/, "").length, 1);
      return {key: key, places: places, significant: significant, decimal: true};
    }
    m = /^([+-]?)(\d+)(?:\/(\d+))?$/.exec(text);
    if (!m) return null;
    var num = BigInt(m[2]) * (m[1] === "-" ? -1n : 1n), den = m[3] === undefined ? 1n : BigInt(m[3]);
    if (den === 0n) return null;
    var g = gcd(num, den);
    if (g === 0n) g = 1n;
    num /= g; den /= g;
    return {key: den === 1n ? num.toString() : num.toString() + "/" + den.toString(), decimal: false};
  }

  function decideNumber(data, typed) {
    /* longer than the checker reads, or digits beyond any answer's size: the page leaves it to the notebook */
    var read = typed.length > data.max_length || /\d{100,}/.test(typed) ? null : readNumber(typed);
    if (read !== null && read.decimal && read.places > data.max_decimals) read = null;  /* beyond the table */
    if (read === null) return "<div class='ltr-teach-feedback ltr-selftest-unread'>" + escapeHtml(data.not_on_page) + "</div>";
    var index = data.table[read.key];
    if (index === undefined && read.decimal && read.significant >= 15) {  /* a double typed out: right value first */
      var typedDouble = parseFloat(read.key);
      for (var i = 0; i < data.doubles.length && index === undefined; i++) {
        if (Math.abs(typedDouble - data.doubles[i].double) <= data.doubles[i].tolerance) index = data.doubles[i].verdict;
      }
    }
    if (index === undefined) index = data.other;
    return data.templates[index];
  }

  /* A typed ranking (or pair) as example_text writes it: "[3, 0, 2]" or "[1, 0, 1] [0, 1, 1]"; null if unread. */
  function readRanking(text, shape) {
    var t = String(text).normalize("NFKC").replace(/【/g, "[").replace(/】/g, "]").replace(/、/g, ",")
      .trim().replace(/[。.]+$/, "");
    var wrapped = /^\[\s*(\[[\s\S]*\])\s*\]$/.exec(t);
    if (wrapped) t = wrapped[1];
    var lists = [], current = null, loose = [], re = /\s*(?:(\d+)|(\[)|(\])|([,;])|(\S))/g, m;
    while ((m = re.exec(t)) !== null) {
      if (m[0] === "") break;
      if (m[5] !== undefined) return null;
      if (m[2]) { if (current !== null) return null; current = []; }
      else if (m[3]) { if (current === null) return null; lists.push(current); current = null; }
      else if (m[1] !== undefined) {
        if (m[1].length > 3 || Number(m[1]) > 100) return null;
        (current !== null ? current : loose).push(Number(m[1]));
      }
    }
    if (current !== null || (loose.length && lists.length)) return null;
    if (loose.length) lists = [loose];
    if (lists.length !== (shape === "pair" ? 2 : 1) || lists.some(function (l) { return !l.length; })) return null;
    return lists.map(function (l) { return "[" + l.join(", ") + "]"; }).join(" ");
  }

  function decideRanking(data, text) {
    var key = readRanking(text, data.shape);
    if (key === null) return {html: "<div class='ltr-teach-feedback ltr-selftest-unread'>" + data.unreadable + "</div>"};
    var index = data.table[key];
    if (index === undefined) {
      return {html: "<div class='ltr-teach-feedback ltr-selftest-unread'>" + escapeHtml(data.not_on_page) + "</div>"};
    }
    return {html: data.templates[index], typed: key};
  }

  /* The feedback (HTML) for an answer: the key of a chosen option, or the typed text. Exposed for tests. */
  function decide(data, answer) {
    if (answer === null || answer === undefined || String(answer).trim() === "") return {html: data.not_answered, answered: false};
    if (data.form === "choice") return {html: data.verdicts[answer], answered: true};
    if (data.form === "written") return {html: data.recorded, answered: true};
    if (data.form === "ranking") {
      var r = decideRanking(data, answer);
      return {html: r.html.split(ANSWER).join(escapeHtml(r.typed || "")), answered: true};
    }
    var typed = normalise(answer);
    if (typed === "") return {html: data.not_answered, answered: false};
    /* a byte-order mark the checker's reader refuses (JavaScript's trim() would drop it): the notebook decides */
    if (String(answer).indexOf("\ufeff") >= 0) typed = "\ufeff";
    return {html: decideNumber(data, typed).split(ANSWER).join(escapeHtml(typed)), answered: true};
  }

  function typeset(element) {
    if (window.MathJax && typeof window.MathJax.typesetPromise === "function") {
      window.MathJax.typesetPromise([element]).catch(function () {});
    }
  }

  function answerOf(form, data) {
    if (data.form === "choice") {
      var chosen = form.querySelector("input[type=radio]:checked");
      return chosen ? chosen.value : null;
    }
    return form.querySelector("#" + form.id + "-answer").value;
  }

  function setUp(form) {
    var payload = JSON.parse(form.querySelector("script.ltr-selftest-data").textContent);
    var data = payload.data, ui = payload.ui, shown = 0;
    var feedback = form.querySelector(".ltr-selftest-feedback");
    var hints = form.querySelector(".ltr-selftest-hints");
    var hintButton = form.querySelector(".ltr-selftest-hint");
    var revealButton = form.querySelector(".ltr-selftest-reveal");

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var verdict = decide(data, answerOf(form, data));
      feedback.innerHTML = verdict.html;
      if (verdict.answered) {
        revealButton.disabled = false;
        revealButton.removeAttribute("title");
      }
      typeset(feedback);
    });
    hintButton.addEventListener("click", function () {
      if (shown >= data.hints.length) return;
      shown += 1;
      hints.innerHTML = "<ol class='ltr-teach-hint-ladder'>" + data.hints.slice(0, shown).map(function (h) {
        return "<li><b>" + escapeHtml(h.step) + "</b>: " + h.text + "</li>";
      }).join("") + "</ol>";
      hintButton.textContent = ui.hint_of.replace("{n}", shown).replace("{total}", data.hints.length);
      if (shown >= data.hints.length) {
        hintButton.disabled = true;
        hintButton.title = ui.all_hints;
      }
      typeset(hints);
    });
    revealButton.addEventListener("click", function () {
      feedback.innerHTML = data.reveal;
      typeset(feedback);
    });
    form.classList.add("ltr-selftest-ready");
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("form.ltr-selftest"), setUp);
  }

  window.ltrSelfTest = {decide: decide, readNumber: readNumber, readRanking: readRanking, normalise: normalise};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
