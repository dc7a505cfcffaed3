// Runs a guest checkout against checkoutd with @boldcommerce/checkout-frontend-library, using
// only the library's own exported functions, and prints a JSON summary on stdout.
//
// Usage: node checkout.mjs <checkoutd base URL> <shop identifier> <file holding init's data>
// The init response is read from a file: its country list alone is larger than an environment
// variable may be.
//
// Every step records the library's own verdict (success, status, error). The run stops at the
// first step the library reports as failed, so the summary names the call checkoutd got wrong.
import { readFileSync } from 'node:fs';
import {
  initialize,
  getApplicationState,
  getOrderInitialData,
  getRefreshedApplicationState,
  validateEmail,
  addGuestCustomer,
  updateCustomer,
  validateAddress,
  setShippingAddress,
  setBillingAddress,
  updateBillingAddress,
  estimateShippingLines,
  getShippingLines,
  changeShippingLine,
  patchOrderMetaData,
  updateLineItemQuantity,
  addLineItem,
  deleteLineItem,
  batchRequest,
  checkInventory,
  setTaxes,
  estimateTaxes,
  validateDiscount,
  addDiscount,
  deleteDiscount,
  getPaymentList,
  addPayment,
  processOrder,
  addLog,
  walletPayCreateOrder,
  deletePaymentMethod,
  apiTypeKeys,
  checkInventoryStage,
} from '@boldcommerce/checkout-frontend-library';

const [baseURL, shopIdentifier, initFile] = process.argv.slice(2);
if (!baseURL || !shopIdentifier || !initFile) {
  console.error('usage: node checkout.mjs <base URL> <shop identifier> <init data file>');
  process.exit(2);
}
const initData = JSON.parse(readFileSync(initFile, 'utf8'));

const address = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  address_line_1: '1 Main St',
  address_line_2: '',
  city: 'Albany',
  country: 'United States',
  country_code: 'US',
  province: 'New York',
  province_code: 'NY',
  postal_code: '12207',
  business_name: '',
  phone_number: '',
};

const steps = [];
let failed = null;

// step runs one library call and records what the library made of checkoutd's answer.
async function step(name, call, check) {
  if (failed) return null;
  let res;
  try {
    res = await call();
  } catch (e) {
    // The library throws (instead of answering) when a response lacks what it reads.
    failed = { step: name, thrown: String(e && e.stack ? e.stack : e) };
    steps.push({ step: name, success: false, thrown: failed.thrown });
    return null;
  }
  const entry = { step: name, success: res.success, status: res.status };
  if (!res.success) {
    entry.error = res.error ? { status: res.error.status, message: res.error.message, body: res.error.body ?? null, meta: res.error.metaData ?? null } : null;
    failed = entry;
  } else if (check) {
    const problem = check(res);
    if (problem) {
      entry.success = false;
      entry.problem = problem;
      failed = entry;
    }
  }
  steps.push(entry);
  return res;
}

// refusal runs a call checkoutd must refuse, and checks the error entry the way storefronts built
// on the library read it.
async function refusal(name, call, status, check) {
  if (failed) return;
  const res = await call();
  const entry = { step: name, success: !res.success, status: res.status };
  const first = res.response?.errors?.[0];
  let problem = null;
  if (res.success || res.status !== status) problem = `want a ${status} refusal`;
  else if (!first) problem = 'no errors array in the answer';
  else if (!['validation', 'critical'].includes(first.severity) || typeof first.field !== 'string' || typeof first.sub_type !== 'string') problem = 'error lacks field, severity or sub_type';
  else problem = check(first);
  if (problem) {
    entry.success = false;
    entry.problem = problem;
    entry.error = res.response;
    failed = entry;
  }
  steps.push(entry);
}

await step('initialize', () => initialize(initData, shopIdentifier, { type: 'local', url: baseURL, path: 'checkout' }), () => {
  const initial = getOrderInitialData();
  return initial.shop_name ? null : 'initial data not taken into the library state';
});
await step('getRefreshedApplicationState', () => getRefreshedApplicationState());
await step('validateEmail', () => validateEmail('ada@example.com'));
await refusal('validateEmail refused', () => validateEmail('not-an-email'), 422, (e) =>
  e.field === 'email_address' && e.severity === 'validation' ? null : 'email error does not name email_address');
await step('addGuestCustomer', () => addGuestCustomer('Ada', 'Lovelace', 'ada@example.com', false), () =>
  getApplicationState().customer.email_address === 'ada@example.com' ? null : 'customer not in the state');
await step('updateCustomer', () => updateCustomer('Ada', 'Lovelace', 'ada@example.com', true));
await step('validateAddress', () => validateAddress(address.first_name, address.last_name, address.address_line_1, address.address_line_2,
  address.city, address.postal_code, address.province, address.province_code, address.country, address.country_code, '', ''));
await step('estimateShippingLines', () => estimateShippingLines(address));
await refusal('setShippingAddress refused', () => setShippingAddress({ ...address, postal_code: 'ABCDE' }), 422, (e) =>
  e.field === 'postal_code' && e.address_type === 'shipping' && e.sub_type === 'shipping_address' ? null : 'address error does not name postal_code and shipping');
await step('setShippingAddress', () => setShippingAddress(address), () =>
  getApplicationState().addresses.shipping.city === 'Albany' ? null : 'shipping address not in the state');
await step('setBillingAddress', () => setBillingAddress({ ...address, city: 'Troy', postal_code: '12180' }));
await step('updateBillingAddress', () => updateBillingAddress(address));
await step('batchRequest', () => batchRequest([
  { apiType: apiTypeKeys.updateCustomer, payload: { first_name: 'Ada', last_name: 'Byron', email_address: 'ada@example.com', accepts_marketing: true } },
  { apiType: apiTypeKeys.updateCustomer, payload: { first_name: 'Ada', last_name: 'King', email_address: 'ada@example.com', accepts_marketing: true } },
  { apiType: apiTypeKeys.getShippingLines, payload: {} },
]), () => getApplicationState().customer.last_name === 'King' ? null : 'the state after a batch is not the state after its last sub-request');
await step('getShippingLines', () => getShippingLines(), () =>
  getApplicationState().shipping.available_shipping_lines.length > 0 ? null : 'no shipping lines offered');
await step('changeShippingLine', () => changeShippingLine(getApplicationState().shipping.available_shipping_lines[0].id), () =>
  getApplicationState().shipping.selected_shipping?.code ? null : 'no shipping line selected');
await step('patchOrderMetaData', () => patchOrderMetaData({ cart_parameters: null, note_attributes: { gift: 'yes' }, notes: 'leave at the door', tags: null }));
await step('addLineItem', () => addLineItem({ platform_id: 'v-mug', quantity: 1, line_item_key: 'mug-gift' }), () =>
  getApplicationState().line_items.length === 2 ? null : 'added line not in the state');
await step('deleteLineItem', () => deleteLineItem({ line_item_key: 'mug-gift', quantity: 1, platform_id: 'v-mug' }), () =>
  getApplicationState().line_items.length === 1 ? null : 'deleted line still in the state');
await step('updateLineItemQuantity', () => updateLineItemQuantity('mug', 2));
await step('checkInventory', () => checkInventory(checkInventoryStage.initial), (res) =>
  res.response.data.inventory_check?.result ? null : 'no inventory_check result');
await refusal('walletPayCreateOrder refused', () => walletPayCreateOrder({ gateway_type: 'paypal', payment_data: { payment_type: 'paypal', locale: 'en' } }), 422, (e) =>
  e.type === 'wallet_pay.not_configured' ? null : 'wallet pay is not refused as not configured');
await refusal('deletePaymentMethod refused', () => deletePaymentMethod('pm_1'), 422, (e) =>
  e.type === 'saved_payment_method.not_found' ? null : 'deleting a saved method is not refused as not found');
await step('validateDiscount', () => validateDiscount('save10'));
await refusal('addDiscount refused', () => addDiscount('NOPE'), 422, (e) =>
  e.field === 'code' && e.sub_type === 'discounts' ? null : 'discount error does not name code and discounts');
await step('addDiscount', () => addDiscount('SAVE10'), () =>
  getApplicationState().discounts.length === 1 ? null : 'discount not in the state');
await step('deleteDiscount', () => deleteDiscount('SAVE10'), () =>
  getApplicationState().discounts.length === 0 ? null : 'deleted discount still in the state');
await step('addDiscount again', () => addDiscount('SAVE10'));
await step('estimateTaxes', () => estimateTaxes(address), (res) =>
  res.response.data.taxes?.length > 0 ? null : 'no estimated taxes');
await step('setTaxes', () => setTaxes(), () =>
  getApplicationState().taxes.length > 0 ? null : 'no taxes in the state');
await step('addPayment', () => {
  const state = getApplicationState();
  // The library keeps only the shop name, countries, languages and settings of initial_data; a
  // storefront takes the gateways from the init answer itself.
  const gateway = initData.initial_data.external_payment_gateways[0];
  if (!gateway) throw new Error('initial_data has no external payment gateway');
  return addPayment({
    gateway_public_id: gateway.public_id,
    amount: state.order_balance,
    currency: state.currency.iso_code,
    type: 'credit_card',
    display_string: 'Visa ending in 4242',
    token: 'tok_ok',
    retain: false,
  });
}, () => getApplicationState().payments.length === 1 ? null : 'payment not in the state');
await step('getPaymentList', () => getPaymentList());
await step('checkInventoryFinal', () => checkInventory(checkInventoryStage.final));
await step('processOrder', () => processOrder(), (res) => res.status === 200 ? null : `process_order answered ${res.status}`);
await step('addLog', () => addLog('checkout finished', 'frontend-library-e2e', { ok: true }));

const state = getApplicationState();
process.stdout.write(JSON.stringify({
  completed: !failed,
  failed,
  steps,
  state: {
    is_processed: state.is_processed,
    order_total: state.order_total,
    order_balance: state.order_balance,
    customer: state.customer,
    shipping_address: state.addresses.shipping,
    billing_address: state.addresses.billing,
    selected_shipping: state.shipping.selected_shipping,
    line_items: state.line_items.map((li) => ({ key: li.product_data.line_item_key, quantity: li.product_data.quantity })),
    taxes: state.taxes,
    payments: state.payments,
    order_meta_data: state.order_meta_data,
  },
}) + '\n');
process.exit(0);
