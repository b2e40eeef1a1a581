/* ltr_teach's JupyterLite: say so when Python (Pyodide) cannot be loaded, instead of a notebook whose
   cells stay busy ([*]) with no word why. tools/build_lite.py puts this script into the lab page and
   writes the address the kernel loads Pyodide from (its pyodideUrl) in place of PYODIDE_URL. The
   message is in the language of the notebook the page opens (a path under zh/ is the Chinese edition). */
(() => {
  const PYODIDE = "PYODIDE_URL";
  const LIMIT_MS = 20000;  // a message within 30 s of opening, however slowly the request fails
  const root = new URL("../", document.baseURI);  // the lab page is one folder below the site's root
  const url = new URL(PYODIDE, root).href;
  const path = new URLSearchParams(location.search).get("path") || "";
  const zh = /(^|\/)zh\//.test(path) || /-zh\/?$/.test(new URL(".", location.href).pathname);
  const text = zh
    ? `无法加载 Python（Pyodide）：连不上 ${url}，或者它 ${LIMIT_MS / 1000} 秒内没有响应，所以代码单元格不会运行。` +
      "JupyterLite 要从网上下载 Pyodide（第一次约 30 MB）：请检查网络连接后刷新页面；" +
      "没有网络的机房，请老师用 make lite PYODIDE=文件夹 生成带有 Pyodide 的离线版本。"
    : `Python (Pyodide) could not be loaded: ${url} could not be reached or did not answer within ` +
      `${LIMIT_MS / 1000} s, so no cell will run. JupyterLite downloads Pyodide from the internet (about 30 MB ` +
      "the first time): check the connection and reload the page; for a classroom without internet, a " +
      "teacher can build the offline edition with make lite PYODIDE=FOLDER.";

  const show = () => {
    if (document.getElementById("ltr-pyodide-missing")) return;
    const box = document.createElement("div");
    box.id = "ltr-pyodide-missing";
    box.setAttribute("role", "alert");
    box.lang = zh ? "zh-CN" : "en";
    box.textContent = text;
    // at the bottom, above JupyterLab's status bar: the menus and the notebook's first cells stay usable
    box.style.cssText = "position:fixed;bottom:24px;left:0;right:0;z-index:100000;padding:0.8em 3em 0.8em 1.2em;" +
      "background:#fff4e5;color:#5f2100;border-top:2px solid #e65100;font:14px/1.5 sans-serif;";
    const close = document.createElement("button");  // it covers the notebook's lower part until it is read
    close.textContent = "×";
    close.setAttribute("aria-label", zh ? "关闭" : "Close");
    close.style.cssText = "position:absolute;top:0.5em;right:0.8em;font-size:18px;cursor:pointer;";
    close.addEventListener("click", () => box.remove());
    box.appendChild(close);
    document.body.appendChild(box);
  };

  const stop = new AbortController();
  const timer = setTimeout(() => { stop.abort(); show(); }, LIMIT_MS);
  fetch(url, { mode: "no-cors", cache: "no-store", signal: stop.signal })
    .then((answer) => { clearTimeout(timer); if (answer.type !== "opaque" && !answer.ok) show(); })
    .catch(() => { clearTimeout(timer); show(); });
})();
