// A tap on a player's name or score (a[data-player-cards]) shows their cards in a dialog: the
// fragment the server renders from the viewer's own view. Without scripts the link opens a page.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-player-cards]");
    var dialog = document.getElementById("player-cards");
    if (!link || !dialog || typeof dialog.showModal !== "function") return;
    event.preventDefault();
    var url = new URL(link.getAttribute("href"), window.location.href);
    url.searchParams.set("partial", "1");
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        dialog.querySelector(".player-cards-body").innerHTML = html;
        dialog.showModal();
      })
      .catch(function () { window.location.href = link.href; });
  });
})();
