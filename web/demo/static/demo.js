// The demo storefront: one GraphQL call per checkout step, each answering the order's new state.

const $ = (id) => document.getElementById(id);
const shopInPath = decodeURIComponent(location.pathname.split("/")[2] || "");
let operations = "";
let accessToken = ""; // the shop's: starts the order (and, for the demo, issues a gift card)
let orderJWT = ""; // the order's: every checkout step
let order = null;

async function call(operationName, variables = {}, credential = orderJWT) {
  if (!operations) {
    operations = await (await fetch("/demo/static/operations.graphql")).text();
  }
  const res = await fetch("/graphql", {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer " + credential },
    body: JSON.stringify({ query: operations, operationName, variables }),
  });
  const body = await res.json();
  if (body.errors && body.errors.length) {
    const e = body.errors[0];
    const ext = e.extensions || {};
    throw new Error(ext.code ? `${e.message} (${ext.code} ${ext.type})` : e.message);
  }
  return body.data;
}

function money(amount) {
  const c = order.applicationState.currency;
  const value = c.hasDecimal ? (amount / 100).toFixed(2) : String(amount);
  return c.symbol + value;
}

function show(view) {
  order = view;
  const st = view.applicationState;
  const lines = $("lines");
  lines.replaceChildren(...st.lineItems.map((li) => {
    const item = document.createElement("li");
    const p = li.productData;
    item.textContent = `${p.quantity} × ${p.title} — ${money(p.totalPrice)}`;
    return item;
  }));
  const choices = $("shipping-lines");
  choices.replaceChildren(...st.shipping.availableShippingLines.map((line, i) => {
    const label = document.createElement("label");
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "index";
    radio.value = line.id;
    radio.required = true;
    radio.checked = st.shipping.selectedShipping ? st.shipping.selectedShipping.id === line.id : i === 0;
    label.append(radio, ` ${line.description} — ${money(line.amount)}`);
    return label;
  }));
  const selected = st.shipping.selectedShipping;
  $("shipping-amount").textContent = selected ? money(selected.amount) : "–";
  $("taxes").textContent = money(st.taxes.filter((t) => !t.isIncluded).reduce((sum, t) => sum + t.value, 0));
  $("total").textContent = money(st.orderTotal);
  $("balance").textContent = money(st.orderBalance);
  $("address").hidden = !st.customer || st.isProcessed;
  $("shipping").hidden = st.shipping.availableShippingLines.length === 0 || st.isProcessed;
  $("payment").hidden = !selected || st.orderBalance <= 0;
  $("place").hidden = !selected || st.orderBalance > 0 || st.isProcessed;
  $("done").hidden = !st.isProcessed;
  $("done").textContent = st.isProcessed ? `Order ${st.platformOrderID} is processed.` : "";
}

function fields(form) {
  return Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v).trim()]));
}

// step runs one checkout step from a form's submit, showing any error the service answers.
function step(formId, run) {
  $(formId).addEventListener("submit", async (event) => {
    event.preventDefault();
    $("error").hidden = true;
    try {
      await run(fields(event.target));
    } catch (err) {
      $("error").textContent = err.message;
      $("error").hidden = false;
    }
  });
}

step("start", async ({ token }) => {
  accessToken = token;
  const { shop } = await call("DemoShop", {}, accessToken);
  if (shopInPath && shop.identifier !== shopInPath) {
    throw new Error(`this token belongs to shop ${shop.identifier}, not ${shopInPath}`);
  }
  const product = shop.products.edges[0];
  const variant = product && product.node.variants.edges[0];
  if (!variant) {
    throw new Error("the shop has no product yet: run `checkoutd demo` or create one through GraphQL");
  }
  $("shop-name").textContent = shop.name;
  const { initOrder } = await call("InitOrder", {
    input: { cartItems: [{ platformID: variant.node.platformID, quantity: 1, lineItemKey: "demo-1" }] },
  }, accessToken);
  orderJWT = initOrder.jwtToken;
  $("start").hidden = true;
  $("checkout").hidden = false;
  show(initOrder);
});

step("customer", async (customer) => {
  const data = await call("CreateGuestCustomer", { id: order.publicOrderID, customer });
  show(data.createGuestCustomer);
  $("customer").hidden = true;
});

step("address", async (address) => {
  await call("SetShippingAddress", { id: order.publicOrderID, address });
  const data = await call("GenerateTaxes", { id: order.publicOrderID });
  show(data.generateTaxes);
});

step("shipping", async ({ index }) => {
  const data = await call("SelectShippingLine", { id: order.publicOrderID, index });
  show(data.selectShippingLine);
});

step("payment", async () => {
  const amount = order.applicationState.orderBalance;
  const { issueGiftCard } = await call("IssueDemoGiftCard", { amount }, accessToken);
  const data = await call("AddGiftCardPayment", {
    id: order.publicOrderID, token: issueGiftCard.giftCard.cardToken, pin: issueGiftCard.pin,
  });
  show(data.addPayment);
});

step("place", async () => {
  const { processOrder } = await call("ProcessOrder", { id: order.publicOrderID });
  if (processOrder.requiresAction) {
    throw new Error("the payment gateway asks the shopper to act first");
  }
  show(processOrder.view);
});
