// "Notifications on this device": subscribes this browser to Web Push with the server's VAPID
// key and hands the subscription to the server (or takes it back).
(function () {
  "use strict";
  // Strings in the page's language (the JavaScript catalog); English when it is missing.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    var i = 0; return text.replace(/%s/g, function () { return values[i++]; });
  };
  var box = document.getElementById("push");
  if (!box) { return; }
  var status = document.getElementById("push-status");
  var on = document.getElementById("push-on"), off = document.getElementById("push-off");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) {
    status.textContent = gettext("This browser cannot receive pushes here (it needs https and push support). On a phone, add the site to the home screen first.");
    return;
  }
  function key(base64) {
    var padded = (base64 + "===".slice((base64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }
  function send(url, body) {
    return fetch(url, {method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRFToken": box.dataset.csrf}});
  }
  function show(subscribed) {
    on.style.display = subscribed ? "none" : "";
    off.style.display = subscribed ? "" : "none";
    status.textContent = subscribed ? gettext("Pushes come to this device.") : gettext("This device gets no pushes.");
  }
  navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(function (registration) {
    return registration.pushManager.getSubscription().then(function (current) {
      show(Boolean(current));
      on.addEventListener("click", function () {
        Notification.requestPermission().then(function (permission) {
          if (permission !== "granted") { status.textContent = gettext("Notifications are blocked for this site in the browser's settings."); return; }
          registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key(box.dataset.vapidKey)})
            .then(function (subscription) { return send(box.dataset.subscribeUrl, subscription.toJSON()); })
            .then(function (response) { show(response.ok); })
            .catch(function (error) { status.textContent = interpolate(gettext("Could not subscribe: %s"), [error]); });
        });
      });
      off.addEventListener("click", function () {
        registration.pushManager.getSubscription().then(function (subscription) {
          if (!subscription) { return show(false); }
          return send(box.dataset.unsubscribeUrl, {endpoint: subscription.endpoint})
            .then(function () { return subscription.unsubscribe(); })
            .then(function () { show(false); });
        });
      });
    });
  });
})();
