// Keeps an open game page current: polls the game's version and reloads when it changed, so a
// player sees the next hand or turn without reloading by hand. While someone is typing, it only
// shows a notice instead of throwing their text away.
(function () {
  "use strict";
  var marker = document.getElementById("live-game");
  if (!marker || !window.fetch) { return; }
  var url = marker.dataset.versionUrl;
  var known = [marker.dataset.version, marker.dataset.status, marker.dataset.seats].join("/");
  var visibleDelay = 4000, hiddenDelay = 30000, timer = null;

  function typing() {
    var fields = document.querySelectorAll("input[type=text], input:not([type]), textarea");
    for (var i = 0; i < fields.length; i++) {
      if (fields[i].value && fields[i].value.trim()) { return true; }
    }
    return document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(check, document.hidden ? hiddenDelay : visibleDelay);
  }

  function check() {
    fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (current) {
        if (!current) { return schedule(); }
        var now = [current.version, current.status, current.seats].join("/");
        if (now === known) { return schedule(); }
        if (typing()) {
          document.getElementById("live-game-notice").hidden = false;
          return;
        }
        window.location.reload();
      })
      .catch(schedule);
  }

  document.addEventListener("visibilitychange", function () { if (!document.hidden) { check(); } });
  schedule();
})();
