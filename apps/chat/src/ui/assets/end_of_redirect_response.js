// The end of a redirect-style OAuth sign-in (Meteor's protocol): keep the credential secret in
// this tab's session storage, where the client looks for it, and go back to where the client
// asked (an address the server checked against the deployment's own origins). That storage is
// this page's origin's (ROOT_URL's): a redirectUrl on another origin gets the tab, not the secret,
// which only a page of this origin in this tab can read. It is never put in the address.
(() => {
  const config = JSON.parse(document.getElementById('config').textContent);
  if (config.setCredentialToken) {
    try {
      window.sessionStorage.setItem(
        config.storagePrefix + config.credentialToken,
        config.credentialSecret,
      );
    } catch {
      // Storage refused: the client will not find the secret, but the redirect still happens.
    }
  }
  if (config.redirectUrl) window.location.replace(config.redirectUrl);
})();
