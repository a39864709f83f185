/**
 * Customers, customer types and agents: the platform operator's administration of the companies
 * it serves (distributors, installers).
 *
 * - A customer is a company with a customer type and an administrator account; what the
 *   company may be granted is its permission list (its roles grant a subset).
 * - A customer type may have subtypes (one level); a type with a subtype is not deleted (1007).
 * - A customer may be served by an agent: another customer, named by its administrator's
 *   account. Only a company administrator's account names an agent (a company user's: 901); a
 *   customer is not its own agent (900); an agent has no agent and a customer that is an agent
 *   has none (one level): naming an agent for a customer that serves others is 902, naming one
 *   that is served by an agent is 202; a customer that is still an agent (of customers or plant
 *   owners) is not deleted (903).
 */
import Type from 'typebox';
import { endpoint, Paged, PageQuery } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { Id, Instant, Nothing, Nullable } from '../schemas.ts';
import { EMAIL_PATTERN, PASSWORD_PATTERN, PHONE_PATTERN, safeTextPattern } from '../validation.ts';

export const customerLimits = {
  name: { min: 1, max: 64 },
  contactName: 64,
  address: 255,
  typeName: { min: 1, max: 32 },
  remark: 255,
  /** Permission names one customer or type may list (the catalogue has fewer). */
  permissions: 200,
} as const;

const Text = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max, pattern: safeTextPattern });
const Account = Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL_PATTERN });
const Permissions = Type.Array(Type.String({ maxLength: 64 }), { maxItems: customerLimits.permissions });
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const Customer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The administrator's account (null when the company has none). */
  account: Nullable(Type.String()),
  contactName: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  address: Nullable(Type.String()),
  customerType: Nullable(Ref),
  agent: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), account: Nullable(Type.String()) })),
  /** Customers this one is the agent of. */
  customers: Type.Integer({ minimum: 0 }),
  users: Type.Integer({ minimum: 0, description: 'accounts of the company, its administrator included' }),
  gateways: Type.Integer({ minimum: 0, description: 'gateways assigned to the company' }),
  createdAt: Instant,
});

const Fields = {
  name: Text(customerLimits.name.max, customerLimits.name.min),
  contactName: Type.Optional(Nullable(Text(customerLimits.contactName))),
  email: Type.Optional(Nullable(Type.String({ maxLength: 254, pattern: `(${EMAIL_PATTERN})|^$` }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 20, pattern: PHONE_PATTERN }))),
  address: Type.Optional(Nullable(Text(customerLimits.address))),
  customerTypeId: Id,
  /** The agent's administrator account; null or absent: no agent. */
  agentAccount: Type.Optional(Nullable(Account)),
  /** What the company may be granted; absent on create: its type's. */
  permissions: Type.Optional(Permissions),
};

export const CustomerCreate = Type.Object(
  { ...Fields, account: Account, password: Type.String({ pattern: PASSWORD_PATTERN }) },
  { additionalProperties: false },
);
export const CustomerEdit = Type.Object(Fields, { additionalProperties: false });

export const customerSorts = ['createdAt', 'name'] as const;

export const listCustomers = endpoint({
  method: 'GET',
  path: '/api/v1/customers',
  access: 'customer.list.view',
  summary: 'Customers, newest first: by name or account (a part), type (with its subtypes) and agent',
  query: Type.Object({
    ...PageQuery,
    name: Type.Optional(Type.String({ maxLength: 64 })),
    account: Type.Optional(Type.String({ maxLength: 254 })),
    customerTypeId: Type.Optional(Id),
    agentId: Type.Optional(Id),
  }),
  data: Paged(Customer),
});

export const customerPicks = endpoint({
  method: 'GET',
  path: '/api/v1/customers/list',
  access: ['customer.list.view', 'sys.gateway.view'],
  summary: 'Every customer by name, for pickers (id, name, the agent’s id)',
  data: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), agentId: Nullable(Type.Integer()) })),
});

export const checkCustomer = endpoint({
  method: 'GET',
  path: '/api/v1/customer/check',
  access: 'customer.list.view',
  summary: 'Whether a company name (203) or an administrator account (104) is taken; id: the customer being edited',
  query: Type.Object({
    name: Type.Optional(Type.String({ maxLength: 64 })),
    account: Type.Optional(Type.String({ maxLength: 254 })),
    id: Type.Optional(Id),
  }),
  data: Nothing,
  tolerate: [ErrorCode.companyNameTaken, ErrorCode.accountExists],
});

export const customerRole = endpoint({
  method: 'GET',
  path: '/api/v1/role/:customerId',
  access: 'customer.list.view',
  summary: 'The permission names a customer holds (checked in the tree of `permission/customer`)',
  params: Type.Object({ customerId: Id }),
  data: Type.Array(Type.String()),
});

const agentCodes = [ErrorCode.ownAgent, ErrorCode.employeeAgent, ErrorCode.managersManager, ErrorCode.agentExists] as const;

export const createCustomer = endpoint({
  method: 'POST',
  path: '/api/v1/customer',
  access: 'customer.edit',
  writes: true,
  encoding: 'json',
  summary: 'Add a customer with its administrator account; 203 name taken, 104 account taken, agent rules 900–902 and 202',
  body: CustomerCreate,
  data: Customer,
  tolerate: [ErrorCode.companyNameTaken, ErrorCode.accountExists, ...agentCodes],
});

export const editCustomer = endpoint({
  method: 'POST',
  path: '/api/v1/customer/:customerId',
  access: 'customer.edit',
  writes: true,
  encoding: 'json',
  summary: 'Edit a customer: details, type, agent, permissions (absent: unchanged)',
  params: Type.Object({ customerId: Id }),
  body: CustomerEdit,
  data: Customer,
  tolerate: [ErrorCode.companyNameTaken, ...agentCodes],
});

export const deleteCustomer = endpoint({
  method: 'DELETE',
  path: '/api/v1/customers/delete/:id',
  access: 'customer.delete',
  writes: true,
  summary:
    'Delete a customer: its gateways go back to stock, its accounts are disabled and leave it; 903 while it is an agent, 4 while it holds plants',
  params: Type.Object({ id: Id }),
  data: Nothing,
  tolerate: [ErrorCode.accountAgent],
});

// ——— customer types ———

const typeFields = {
  id: Type.Integer(),
  name: Type.String(),
  remark: Nullable(Type.String()),
  parentId: Nullable(Type.Integer()),
  permissions: Type.Array(Type.String()),
  /** Customers of this type. */
  customers: Type.Integer({ minimum: 0 }),
  createdAt: Instant,
};
export const CustomerSubtype = Type.Object(typeFields);
export const CustomerType = Type.Object({ ...typeFields, children: Type.Array(CustomerSubtype) });

export const CustomerTypeInput = Type.Object(
  {
    name: Text(customerLimits.typeName.max, customerLimits.typeName.min),
    remark: Type.Optional(Nullable(Text(customerLimits.remark))),
    /** The parent of a subtype: a type without a parent. */
    parentId: Type.Optional(Nullable(Id)),
    /** What a new customer of this type is granted. */
    permissions: Type.Optional(Permissions),
  },
  { additionalProperties: false },
);

export const listCustomerTypes = endpoint({
  method: 'GET',
  path: '/api/v1/customerTypes',
  access: 'customer.type.list.view',
  summary: 'Customer types with their subtypes, by name; paged over the types (a name matches a type or one of its subtypes)',
  query: Type.Object({ ...PageQuery, name: Type.Optional(Type.String({ maxLength: 32 })) }),
  data: Paged(CustomerType),
});

export const customerTypePicks = endpoint({
  method: 'GET',
  path: '/api/v1/customer/types',
  access: ['customer.list.view', 'customer.type.list.view'],
  summary: 'Every customer type, a type before its subtypes, for pickers',
  data: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), parentId: Nullable(Type.Integer()) })),
});

export const getCustomerType = endpoint({
  method: 'GET',
  path: '/api/v1/customerType/:id',
  access: 'customer.type.list.view',
  summary: 'One customer type with its subtypes',
  params: Type.Object({ id: Id }),
  data: CustomerType,
});

export const createCustomerType = endpoint({
  method: 'POST',
  path: '/api/v1/customerType',
  access: 'customer.type.edit',
  writes: true,
  encoding: 'json',
  summary: 'Add a customer type or a subtype (a subtype’s parent is a type without a parent: else 4); names unique (4)',
  body: CustomerTypeInput,
  data: CustomerType,
  tolerate: [ErrorCode.typeHasSubtype],
});

export const editCustomerType = endpoint({
  method: 'POST',
  path: '/api/v1/customerType/:id',
  access: 'customer.type.edit',
  writes: true,
  encoding: 'json',
  summary: 'Edit a customer type: name (unique: 4), remark, parent (a type with subtypes gets none: 1007), permissions',
  params: Type.Object({ id: Id }),
  body: CustomerTypeInput,
  data: CustomerType,
  tolerate: [ErrorCode.typeHasSubtype],
});

export const deleteCustomerType = endpoint({
  method: 'POST',
  path: '/api/v1/customerType/:id/delete',
  access: 'customer.type.edit',
  writes: true,
  summary: 'Delete a customer type: 1007 while it has a subtype, 4 while customers hold it',
  params: Type.Object({ id: Id }),
  data: Nothing,
  tolerate: [ErrorCode.typeHasSubtype],
});
