// Registers the service worker, so the site can be installed on a phone's home screen and
// receive pushes.
(function () {
  "use strict";
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () {});
  }
})();
