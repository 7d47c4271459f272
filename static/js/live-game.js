// Keeps an open game page current: listens to the game's event stream (Server-Sent Events) and
// reloads when the game moved, so a player sees the next hand or turn without reloading by hand.
// Where the stream cannot be opened (an old browser, a server without streams) it polls the
// game's version instead. While someone is typing, it only shows a notice instead of throwing
// their text away.
(function () {
  "use strict";
  var marker = document.getElementById("live-game");
  if (!marker || !window.fetch) { return; }
  var url = marker.dataset.versionUrl;
  var known = [marker.dataset.version, marker.dataset.status, marker.dataset.seats].join("/");
  var visibleDelay = 4000, hiddenDelay = 30000, timer = null, source = null;

  function typing() {
    var fields = document.querySelectorAll("input[type=text], input:not([type]), textarea");
    for (var i = 0; i < fields.length; i++) {
      if (fields[i].value && fields[i].value.trim()) { return true; }
    }
    return document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
  }

  function changed() {
    if (source) { source.close(); }
    if (typing()) {
      document.getElementById("live-game-notice").hidden = false;
      return;
    }
    window.location.reload();
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
        changed();
      })
      .catch(schedule);
  }

  function poll() {
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { check(); } });
    check();
  }

  function listen() {
    // Resume after the version this page shows: only what happened since comes.
    source = new EventSource(marker.dataset.streamUrl + "?last_event_id=" + marker.dataset.version);
    marker.dataset.live = "stream";
    source.addEventListener("move", function (event) {
      if (JSON.parse(event.data).version > Number(marker.dataset.version)) { changed(); }
    });
    source.addEventListener("status", function (event) {
      var data = JSON.parse(event.data);
      if (data.status !== marker.dataset.status || String(data.seats_taken) !== marker.dataset.seats) {
        changed();
      }
    });
    source.addEventListener("end", function () { source.close(); });
    source.onerror = function () {
      // The browser reconnects by itself after a dropped connection; a refused stream is
      // closed for good: fall back to polling.
      if (source.readyState === EventSource.CLOSED) {
        marker.dataset.live = "polling";
        poll();
      }
    };
  }

  if (window.EventSource && marker.dataset.streamUrl) { listen(); } else { schedule(); }
})();
