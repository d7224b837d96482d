// The end of a popup-style OAuth sign-in (Meteor's protocol): hand the credential secret of the
// client's credentialToken to the window that opened the flow, then close; a failure stays open
// with its reason until the person closes it. Served as a file so that the page's
// Content-Security-Policy allows no inline script.
(() => {
  const config = JSON.parse(document.getElementById('config').textContent);
  if (config.setCredentialToken) {
    const { credentialToken, credentialSecret } = config;
    // Mobile web views (Cordova, Rocket.Chat's OAuthView) read the pair from the URL's fragment.
    if (config.isCordova) {
      window.location.hash = JSON.stringify({ credentialToken, credentialSecret });
    }
    let handed = false;
    try {
      const oauth = window.opener?.Package?.oauth?.OAuth;
      if (oauth) {
        oauth._handleCredentialSecret(credentialToken, credentialSecret);
        handed = true;
      }
    } catch {
      // An opener on another origin cannot be reached: local storage below.
    }
    if (!handed) {
      try {
        window.localStorage.setItem(config.storagePrefix + credentialToken, credentialSecret);
      } catch {
        // Storage refused: the opener will not find the secret; closing is all that is left.
      }
    }
  }
  // A web view of the mobile app is closed by the app, which reads the fragment.
  if (config.isCordova) return;
  document.getElementById('close').addEventListener('click', (event) => {
    event.preventDefault();
    window.close();
  });
  if (config.keepOpen) {
    // Meteor's client waits for its popup to close, then finds no secret and reports the
    // sign-in as failed: closing at once left nothing of the reason to read. The button shows
    // only where a script may close the window (one the client opened).
    if (window.opener) document.getElementById('after-failure').hidden = false;
    return;
  }
  if (config.setCredentialToken) document.getElementById('completed').hidden = false;
  window.close();
})();
