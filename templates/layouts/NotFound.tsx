/** Spec §8: unknown paths show this page (status 404 on the server). Strings as the original site shows them. */
export function NotFound() {
  return (
    <main id="main-content" className="page-main not-found" tabIndex={-1}>
      <div className="container not-found__container">
        <h1>Page Not Found</h1>
        <p>We could not find what you were looking for.</p>
        <p>Please contact the owner of the site that linked you to the original URL and let them know their link is broken.</p>
      </div>
    </main>
  );
}
