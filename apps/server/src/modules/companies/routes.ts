/** Company administration routes: the company, its accounts, its roles. */
import { companyRolesApi as api, companyApi, ErrorCode } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { fail } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { uploadLimit } from '../users/avatar.ts';
import * as company from './company.service.ts';
import { storeLogo } from './logo.ts';
import * as roles from './roles.service.ts';
import { readUserForm } from './user-form.ts';
import * as users from './users.service.ts';

export function companyRoutes(app: FastifyInstance) {
  const { db, config } = app.deps;
  route(app, api.listRoles, ({ caller }) => roles.listRoles(db, caller));
  route(app, api.checkRole, async ({ caller, query }) => {
    await roles.checkRoleName(db, caller, query.name, query.id);
    return null;
  });
  route(app, api.getRole, ({ caller, params }) => roles.getRole(db, caller, params.id));
  route(app, api.addRole, ({ caller, body }) => roles.addRole(db, caller, body));
  route(app, api.editRole, ({ caller, params, body }) => roles.editRole(db, caller, params.id, body));
  route(app, api.deleteRole, ({ caller, params, query }) => roles.deleteRole(db, caller, params.id, query.moveTo));

  route(app, companyApi.companyInfo, ({ caller, query }) => company.companyInfo(db, caller, query.id));
  route(app, companyApi.checkCompany, async ({ caller, query }) => {
    await company.checkCompanyName(db, caller, query.name, query.id);
    return null;
  });
  route(app, companyApi.addCompany, ({ caller, body }) => company.addCompany(db, caller, body));
  route(app, companyApi.editCompany, ({ caller, params, body }) => company.editCompany(db, caller, params.id, body));
  route(app, companyApi.setThemeColor, ({ caller, params, body }) =>
    company.setThemeColor(db, caller, params.id, body.themeColor),
  );
  route(
    app,
    companyApi.uploadLogo,
    async ({ req }) => {
      const file = await req.file({ limits: { fileSize: companyApi.companyLimits.logoBytes, files: 1 } });
      if (!file) return fail(ErrorCode.validation, 'file is required');
      const url = await storeLogo(config.dataDir, await file.toBuffer());
      return { url: url ?? fail(ErrorCode.validation, 'file must be a JPG, JPEG, GIF or PNG image') };
    },
    { limit: uploadLimit },
  );
  route(app, companyApi.setLogo, ({ caller, params, body }) => company.setLogo(db, config.dataDir, caller, params.id, body));

  route(app, companyApi.listUsers, ({ caller, query }) => users.listUsers(db, caller, query));
  route(app, companyApi.getCompanyUser, ({ caller, params }) => users.getUser(db, caller, params.id));
  route(app, companyApi.checkUser, async ({ caller, query }) => {
    await users.checkAccount(db, caller, query.account);
    return null;
  });
  route(
    app,
    companyApi.addUser,
    async ({ caller, req, lan }) => {
      const form = await readUserForm(req, lan);
      return users.addUser(db, config, caller, form.fields, form.avatar);
    },
    { limit: uploadLimit },
  );
  route(app, companyApi.editUser, ({ caller, params, body }) => users.editUser(db, caller, params.id, body));
  route(app, companyApi.deleteUser, ({ caller, params }) => users.deleteUser(db, caller, params.id));
}
