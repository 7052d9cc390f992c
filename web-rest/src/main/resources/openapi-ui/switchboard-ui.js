// The API's browsing UI (Swagger UI) over this server's own document; a file of its own, as the
// page's content security policy runs no inline script.
window.ui = SwaggerUIBundle({
  url: "/openapi?format=json",
  dom_id: "#swagger-ui",
  deepLinking: true,
});
