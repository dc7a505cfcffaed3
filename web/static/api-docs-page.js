// Starts Swagger UI on the page that GET /docs serves (web/api_docs.templ), on the document
// GET /openapi.yaml serves. A file of its own: the page's Content-Security-Policy runs no inline
// script.
(function () {
  "use strict";
  SwaggerUIBundle({
    url: "/openapi.yaml",
    dom_id: "#api-docs",
    deepLinking: true,
    // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    docExpansion: "none"
  });
})();
