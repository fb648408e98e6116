// The console's one script (the Content-Security-Policy allows no other, and no inline script): small enhancements
// of pages that work without it.
"use strict";

// "Copy" buttons: copy the text of the element their data-copy names.
for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = "Copied";
    } catch {
      // No clipboard permission: select the text so the keyboard can copy it.
      getSelection().selectAllChildren(source);
    }
  });
}
