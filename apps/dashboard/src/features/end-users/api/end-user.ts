// An end user as the project's content API answers it (`/api/users`, Strapi's users-permissions
// plugin: not the management API, so not in its document).

export interface EndUserRole {
  id: number;
  name: string;
  type: string;
}

export interface EndUser {
  id: number;
  documentId: string;
  username: string;
  email: string;
  provider: string;
  confirmed: boolean;
  blocked: boolean;
  createdAt: string;
  updatedAt: string;
  role?: EndUserRole | null;
}
