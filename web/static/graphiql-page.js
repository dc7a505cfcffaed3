// Starts GraphiQL on the page that GET /graphql serves (web/graphiql.templ). A file of its own:
// the page's Content-Security-Policy runs no inline script.
(function () {
  "use strict";
  // GraphiQL's dialogs add a <style> element, which the policy lets through only with the
  // page's nonce; the bundle (react-remove-scroll) reads it from __webpack_nonce__.
  window.__webpack_nonce__ = document.currentScript.nonce;

  // The endpoint is the page's own address: GraphiQL POSTs to it, with the headers of its
  // Headers pane, which starts with the access token's header to fill in (never stored).
  var headers = JSON.stringify({ Authorization: "Bearer <access token>" }, null, 2);
  var query = [
    "# checkoutd GraphQL. Put the shop's access token (checkoutd shop token, or make run) in the",
    "# Authorization header below, then run the query with Ctrl-Enter. The book icon opens the",
    "# schema's documentation.",
    "{",
    "  shop {",
    "    identifier",
    "    name",
    "    currency",
    "  }",
    "}",
    ""
  ].join("\n");

  ReactDOM.createRoot(document.getElementById("graphiql")).render(
    React.createElement(GraphiQL, {
      fetcher: GraphiQL.createFetcher({ url: window.location.pathname }),
      defaultQuery: query,
      defaultHeaders: headers,
      defaultEditorToolsVisibility: "headers",
      shouldPersistHeaders: false
    })
  );
})();
