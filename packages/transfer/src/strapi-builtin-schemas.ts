// The schemas of the types Strapi 5.54 itself defines (upload, i18n, users-permissions, releases,
// review workflows, admin), as `strapi export` writes them: `strapi import` compares an archive's
// schemas with the destination app's, so an export lists them exactly as a new Strapi app has them.
export const STRAPI_VERSION = '5.54.0';

export const BUILTIN_SCHEMAS: Readonly<Record<string, Record<string, unknown>>> = {
 "plugin::upload.file": {
  "collectionName": "files",
  "info": {
   "singularName": "file",
   "pluralName": "files",
   "displayName": "File",
   "description": ""
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "configurable": false,
    "required": true
   },
   "alternativeText": {
    "type": "text",
    "configurable": false
   },
   "caption": {
    "type": "text",
    "configurable": false
   },
   "focalPoint": {
    "type": "json",
    "configurable": false
   },
   "width": {
    "type": "integer",
    "configurable": false
   },
   "height": {
    "type": "integer",
    "configurable": false
   },
   "formats": {
    "type": "json",
    "configurable": false
   },
   "hash": {
    "type": "string",
    "configurable": false,
    "required": true
   },
   "ext": {
    "type": "string",
    "configurable": false
   },
   "mime": {
    "type": "string",
    "configurable": false,
    "required": true
   },
   "size": {
    "type": "decimal",
    "configurable": false,
    "required": true
   },
   "url": {
    "type": "text",
    "configurable": false,
    "required": true
   },
   "previewUrl": {
    "type": "text",
    "configurable": false
   },
   "provider": {
    "type": "string",
    "configurable": false,
    "required": true
   },
   "provider_metadata": {
    "type": "json",
    "configurable": false
   },
   "related": {
    "type": "relation",
    "relation": "morphToMany",
    "configurable": false
   },
   "folder": {
    "type": "relation",
    "relation": "manyToOne",
    "target": "plugin::upload.folder",
    "inversedBy": "files",
    "private": true
   },
   "folderPath": {
    "type": "string",
    "minLength": 1,
    "required": true,
    "private": true,
    "searchable": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::upload.file",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "files"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "file",
  "uid": "plugin::upload.file",
  "plugin": "upload",
  "globalId": "UploadFile"
 },
 "plugin::upload.folder": {
  "collectionName": "upload_folders",
  "info": {
   "singularName": "folder",
   "pluralName": "folders",
   "displayName": "Folder"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "minLength": 1,
    "required": true
   },
   "pathId": {
    "type": "integer",
    "unique": true,
    "required": true
   },
   "parent": {
    "type": "relation",
    "relation": "manyToOne",
    "target": "plugin::upload.folder",
    "inversedBy": "children"
   },
   "children": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::upload.folder",
    "mappedBy": "parent"
   },
   "files": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::upload.file",
    "mappedBy": "folder"
   },
   "path": {
    "type": "string",
    "minLength": 1,
    "required": true
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::upload.folder",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "upload_folders"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "folder",
  "uid": "plugin::upload.folder",
  "plugin": "upload",
  "globalId": "UploadFolder"
 },
 "plugin::i18n.locale": {
  "collectionName": "i18n_locale",
  "info": {
   "singularName": "locale",
   "pluralName": "locales",
   "collectionName": "locales",
   "displayName": "Locale",
   "description": ""
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "min": 1,
    "max": 50,
    "configurable": false
   },
   "code": {
    "type": "string",
    "unique": true,
    "configurable": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::i18n.locale",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "i18n_locale"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "locale",
  "uid": "plugin::i18n.locale",
  "plugin": "i18n",
  "globalId": "I18NLocale"
 },
 "plugin::content-releases.release": {
  "collectionName": "strapi_releases",
  "info": {
   "singularName": "release",
   "pluralName": "releases",
   "displayName": "Release"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "required": true
   },
   "releasedAt": {
    "type": "datetime"
   },
   "scheduledAt": {
    "type": "datetime"
   },
   "timezone": {
    "type": "string"
   },
   "status": {
    "type": "enumeration",
    "enum": [
     "ready",
     "blocked",
     "failed",
     "done",
     "empty"
    ],
    "required": true
   },
   "actions": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::content-releases.release-action",
    "mappedBy": "release"
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::content-releases.release",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "strapi_releases"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "release",
  "uid": "plugin::content-releases.release",
  "plugin": "content-releases",
  "globalId": "ContentReleasesRelease"
 },
 "plugin::content-releases.release-action": {
  "collectionName": "strapi_release_actions",
  "info": {
   "singularName": "release-action",
   "pluralName": "release-actions",
   "displayName": "Release Action"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "type": {
    "type": "enumeration",
    "enum": [
     "publish",
     "unpublish"
    ],
    "required": true
   },
   "contentType": {
    "type": "string",
    "required": true
   },
   "entryDocumentId": {
    "type": "string"
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "release": {
    "type": "relation",
    "relation": "manyToOne",
    "target": "plugin::content-releases.release",
    "inversedBy": "actions"
   },
   "isEntryValid": {
    "type": "boolean"
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::content-releases.release-action",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "strapi_release_actions"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "release-action",
  "uid": "plugin::content-releases.release-action",
  "plugin": "content-releases",
  "globalId": "ContentReleasesReleaseAction"
 },
 "plugin::review-workflows.workflow": {
  "collectionName": "strapi_workflows",
  "info": {
   "name": "Workflow",
   "description": "",
   "singularName": "workflow",
   "pluralName": "workflows",
   "displayName": "Workflow"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "required": true,
    "unique": true
   },
   "stages": {
    "type": "relation",
    "target": "plugin::review-workflows.workflow-stage",
    "relation": "oneToMany",
    "mappedBy": "workflow"
   },
   "stageRequiredToPublish": {
    "type": "relation",
    "target": "plugin::review-workflows.workflow-stage",
    "relation": "oneToOne",
    "required": false
   },
   "contentTypes": {
    "type": "json",
    "required": true,
    "default": "[]"
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::review-workflows.workflow",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "strapi_workflows"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "workflow",
  "uid": "plugin::review-workflows.workflow",
  "plugin": "review-workflows",
  "globalId": "ReviewWorkflowsWorkflow"
 },
 "plugin::review-workflows.workflow-stage": {
  "collectionName": "strapi_workflows_stages",
  "info": {
   "name": "Workflow Stage",
   "description": "",
   "singularName": "workflow-stage",
   "pluralName": "workflow-stages",
   "displayName": "Stages"
  },
  "options": {
   "version": "1.1.0",
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "configurable": false
   },
   "color": {
    "type": "string",
    "configurable": false,
    "default": "#4945FF"
   },
   "workflow": {
    "type": "relation",
    "target": "plugin::review-workflows.workflow",
    "relation": "manyToOne",
    "inversedBy": "stages",
    "configurable": false
   },
   "permissions": {
    "type": "relation",
    "target": "admin::permission",
    "relation": "manyToMany",
    "configurable": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::review-workflows.workflow-stage",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "strapi_workflows_stages"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "workflow-stage",
  "uid": "plugin::review-workflows.workflow-stage",
  "plugin": "review-workflows",
  "globalId": "ReviewWorkflowsWorkflowStage"
 },
 "plugin::users-permissions.permission": {
  "collectionName": "up_permissions",
  "info": {
   "name": "permission",
   "description": "",
   "singularName": "permission",
   "pluralName": "permissions",
   "displayName": "Permission"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "action": {
    "type": "string",
    "required": true,
    "configurable": false
   },
   "role": {
    "type": "relation",
    "relation": "manyToOne",
    "target": "plugin::users-permissions.role",
    "inversedBy": "permissions",
    "configurable": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::users-permissions.permission",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "up_permissions"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "permission",
  "uid": "plugin::users-permissions.permission",
  "plugin": "users-permissions",
  "globalId": "UsersPermissionsPermission"
 },
 "plugin::users-permissions.role": {
  "collectionName": "up_roles",
  "info": {
   "name": "role",
   "description": "",
   "singularName": "role",
   "pluralName": "roles",
   "displayName": "Role"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "minLength": 3,
    "required": true,
    "configurable": false
   },
   "description": {
    "type": "string",
    "configurable": false
   },
   "type": {
    "type": "string",
    "unique": true,
    "configurable": false
   },
   "permissions": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::users-permissions.permission",
    "mappedBy": "role",
    "configurable": false
   },
   "users": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::users-permissions.user",
    "mappedBy": "role",
    "configurable": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::users-permissions.role",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "up_roles"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "role",
  "uid": "plugin::users-permissions.role",
  "plugin": "users-permissions",
  "globalId": "UsersPermissionsRole"
 },
 "plugin::users-permissions.user": {
  "collectionName": "up_users",
  "info": {
   "name": "user",
   "description": "",
   "singularName": "user",
   "pluralName": "users",
   "displayName": "User"
  },
  "options": {
   "timestamps": true,
   "draftAndPublish": false
  },
  "attributes": {
   "username": {
    "type": "string",
    "minLength": 3,
    "unique": true,
    "configurable": false,
    "required": true
   },
   "email": {
    "type": "email",
    "minLength": 6,
    "configurable": false,
    "required": true
   },
   "provider": {
    "type": "string",
    "configurable": false
   },
   "password": {
    "type": "password",
    "minLength": 6,
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "resetPasswordToken": {
    "type": "string",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "confirmationToken": {
    "type": "string",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "confirmed": {
    "type": "boolean",
    "default": false,
    "configurable": false
   },
   "blocked": {
    "type": "boolean",
    "default": false,
    "configurable": false
   },
   "role": {
    "type": "relation",
    "relation": "manyToOne",
    "target": "plugin::users-permissions.role",
    "inversedBy": "users",
    "configurable": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "plugin::users-permissions.user",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "up_users"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "user",
  "uid": "plugin::users-permissions.user",
  "plugin": "users-permissions",
  "globalId": "UsersPermissionsUser"
 },
 "admin::permission": {
  "collectionName": "admin_permissions",
  "info": {
   "name": "Permission",
   "description": "",
   "singularName": "permission",
   "pluralName": "permissions",
   "displayName": "Permission"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "action": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": true
   },
   "actionParameters": {
    "type": "json",
    "configurable": false,
    "required": false,
    "default": {}
   },
   "subject": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": false
   },
   "properties": {
    "type": "json",
    "configurable": false,
    "required": false,
    "default": {}
   },
   "conditions": {
    "type": "json",
    "configurable": false,
    "required": false,
    "default": []
   },
   "role": {
    "configurable": false,
    "type": "relation",
    "relation": "manyToOne",
    "inversedBy": "permissions",
    "target": "admin::role",
    "required": false
   },
   "apiToken": {
    "configurable": false,
    "type": "relation",
    "relation": "manyToOne",
    "inversedBy": "adminPermissions",
    "target": "admin::api-token",
    "required": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "admin::permission",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "admin_permissions"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "permission",
  "uid": "admin::permission",
  "plugin": "admin",
  "globalId": "AdminPermission"
 },
 "admin::user": {
  "collectionName": "admin_users",
  "info": {
   "name": "User",
   "description": "",
   "singularName": "user",
   "pluralName": "users",
   "displayName": "User"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "firstname": {
    "type": "string",
    "unique": false,
    "minLength": 1,
    "configurable": false,
    "required": false
   },
   "lastname": {
    "type": "string",
    "unique": false,
    "minLength": 1,
    "configurable": false,
    "required": false
   },
   "username": {
    "type": "string",
    "unique": false,
    "configurable": false,
    "required": false
   },
   "email": {
    "type": "email",
    "minLength": 6,
    "configurable": false,
    "required": true,
    "unique": true,
    "private": true
   },
   "password": {
    "type": "password",
    "minLength": 6,
    "configurable": false,
    "required": false,
    "private": true,
    "searchable": false
   },
   "resetPasswordToken": {
    "type": "string",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "resetPasswordTokenExpiresAt": {
    "type": "datetime",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "registrationToken": {
    "type": "string",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "isActive": {
    "type": "boolean",
    "default": false,
    "configurable": false,
    "private": true
   },
   "roles": {
    "configurable": false,
    "private": true,
    "type": "relation",
    "relation": "manyToMany",
    "inversedBy": "users",
    "target": "admin::role",
    "collectionName": "strapi_users_roles"
   },
   "apiTokens": {
    "configurable": false,
    "private": true,
    "type": "relation",
    "relation": "oneToMany",
    "mappedBy": "adminUserOwner",
    "target": "admin::api-token"
   },
   "blocked": {
    "type": "boolean",
    "default": false,
    "configurable": false,
    "private": true
   },
   "preferedLanguage": {
    "type": "string",
    "configurable": false,
    "required": false,
    "searchable": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "admin::user",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "admin_users"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "user",
  "uid": "admin::user",
  "plugin": "admin",
  "globalId": "AdminUser"
 },
 "admin::role": {
  "collectionName": "admin_roles",
  "info": {
   "name": "Role",
   "description": "",
   "singularName": "role",
   "pluralName": "roles",
   "displayName": "Role"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "minLength": 1,
    "unique": true,
    "configurable": false,
    "required": true
   },
   "code": {
    "type": "string",
    "minLength": 1,
    "unique": true,
    "configurable": false,
    "required": true
   },
   "description": {
    "type": "string",
    "configurable": false
   },
   "users": {
    "configurable": false,
    "type": "relation",
    "relation": "manyToMany",
    "mappedBy": "roles",
    "target": "admin::user"
   },
   "permissions": {
    "configurable": false,
    "type": "relation",
    "relation": "oneToMany",
    "mappedBy": "role",
    "target": "admin::permission"
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "admin::role",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "admin_roles"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "role",
  "uid": "admin::role",
  "plugin": "admin",
  "globalId": "AdminRole"
 },
 "admin::api-token": {
  "collectionName": "strapi_api_tokens",
  "info": {
   "name": "Api Token",
   "singularName": "api-token",
   "pluralName": "api-tokens",
   "displayName": "Api Token",
   "description": ""
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": true,
    "unique": true
   },
   "description": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": false,
    "default": ""
   },
   "kind": {
    "type": "enumeration",
    "enum": [
     "content-api",
     "admin"
    ],
    "configurable": false,
    "required": true,
    "default": "content-api"
   },
   "type": {
    "type": "enumeration",
    "enum": [
     "read-only",
     "full-access",
     "custom"
    ],
    "configurable": false,
    "required": false,
    "default": "read-only"
   },
   "accessKey": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": true,
    "searchable": false
   },
   "encryptedKey": {
    "type": "text",
    "minLength": 1,
    "configurable": false,
    "required": false,
    "searchable": false
   },
   "lastUsedAt": {
    "type": "datetime",
    "configurable": false,
    "required": false
   },
   "permissions": {
    "type": "relation",
    "target": "admin::api-token-permission",
    "relation": "oneToMany",
    "mappedBy": "token",
    "configurable": false,
    "required": false
   },
   "adminPermissions": {
    "type": "relation",
    "target": "admin::permission",
    "relation": "oneToMany",
    "mappedBy": "apiToken",
    "configurable": false,
    "required": false
   },
   "adminUserOwner": {
    "type": "relation",
    "target": "admin::user",
    "relation": "manyToOne",
    "inversedBy": "apiTokens",
    "configurable": false,
    "required": false
   },
   "expiresAt": {
    "type": "datetime",
    "configurable": false,
    "required": false
   },
   "lifespan": {
    "type": "biginteger",
    "configurable": false,
    "required": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "admin::api-token",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "strapi_api_tokens"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "api-token",
  "uid": "admin::api-token",
  "plugin": "admin",
  "globalId": "AdminApiToken"
 },
 "admin::api-token-permission": {
  "collectionName": "strapi_api_token_permissions",
  "info": {
   "name": "API Token Permission",
   "description": "",
   "singularName": "api-token-permission",
   "pluralName": "api-token-permissions",
   "displayName": "API Token Permission"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "action": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": true
   },
   "token": {
    "configurable": false,
    "type": "relation",
    "relation": "manyToOne",
    "inversedBy": "permissions",
    "target": "admin::api-token"
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "admin::api-token-permission",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "strapi_api_token_permissions"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "api-token-permission",
  "uid": "admin::api-token-permission",
  "plugin": "admin",
  "globalId": "AdminApiTokenPermission"
 },
 "admin::transfer-token": {
  "collectionName": "strapi_transfer_tokens",
  "info": {
   "name": "Transfer Token",
   "singularName": "transfer-token",
   "pluralName": "transfer-tokens",
   "displayName": "Transfer Token",
   "description": ""
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "name": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": true,
    "unique": true
   },
   "description": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": false,
    "default": ""
   },
   "accessKey": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": true
   },
   "lastUsedAt": {
    "type": "datetime",
    "configurable": false,
    "required": false
   },
   "permissions": {
    "type": "relation",
    "target": "admin::transfer-token-permission",
    "relation": "oneToMany",
    "mappedBy": "token",
    "configurable": false,
    "required": false
   },
   "expiresAt": {
    "type": "datetime",
    "configurable": false,
    "required": false
   },
   "lifespan": {
    "type": "biginteger",
    "configurable": false,
    "required": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "admin::transfer-token",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "strapi_transfer_tokens"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "transfer-token",
  "uid": "admin::transfer-token",
  "plugin": "admin",
  "globalId": "AdminTransferToken"
 },
 "admin::transfer-token-permission": {
  "collectionName": "strapi_transfer_token_permissions",
  "info": {
   "name": "Transfer Token Permission",
   "description": "",
   "singularName": "transfer-token-permission",
   "pluralName": "transfer-token-permissions",
   "displayName": "Transfer Token Permission"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   }
  },
  "attributes": {
   "action": {
    "type": "string",
    "minLength": 1,
    "configurable": false,
    "required": true
   },
   "token": {
    "configurable": false,
    "type": "relation",
    "relation": "manyToOne",
    "inversedBy": "permissions",
    "target": "admin::transfer-token"
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "admin::transfer-token-permission",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "strapi_transfer_token_permissions"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "transfer-token-permission",
  "uid": "admin::transfer-token-permission",
  "plugin": "admin",
  "globalId": "AdminTransferTokenPermission"
 },
 "admin::session": {
  "collectionName": "strapi_sessions",
  "info": {
   "name": "Session",
   "description": "Session Manager storage",
   "singularName": "session",
   "pluralName": "sessions",
   "displayName": "Session"
  },
  "options": {
   "draftAndPublish": false
  },
  "pluginOptions": {
   "content-manager": {
    "visible": false
   },
   "content-type-builder": {
    "visible": false
   },
   "i18n": {
    "localized": false
   }
  },
  "attributes": {
   "userId": {
    "type": "string",
    "required": true,
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "sessionId": {
    "type": "string",
    "unique": true,
    "required": true,
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "childId": {
    "type": "string",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "deviceId": {
    "type": "string",
    "required": true,
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "origin": {
    "type": "string",
    "required": true,
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "expiresAt": {
    "type": "datetime",
    "required": true,
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "absoluteExpiresAt": {
    "type": "datetime",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "status": {
    "type": "string",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "type": {
    "type": "string",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "metadata": {
    "type": "json",
    "configurable": false,
    "private": true,
    "searchable": false
   },
   "createdAt": {
    "type": "datetime"
   },
   "updatedAt": {
    "type": "datetime"
   },
   "publishedAt": {
    "type": "datetime",
    "configurable": false,
    "writable": true,
    "visible": true
   },
   "createdBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "updatedBy": {
    "type": "relation",
    "relation": "oneToOne",
    "target": "admin::user",
    "configurable": false,
    "writable": false,
    "visible": false,
    "useJoinTable": false,
    "private": true
   },
   "locale": {
    "writable": true,
    "private": true,
    "configurable": false,
    "visible": false,
    "type": "string"
   },
   "localizations": {
    "type": "relation",
    "relation": "oneToMany",
    "target": "admin::session",
    "writable": false,
    "private": true,
    "configurable": false,
    "visible": false,
    "unstable_virtual": true,
    "joinColumn": {
     "name": "document_id",
     "referencedColumn": "document_id",
     "referencedTable": "strapi_sessions"
    }
   }
  },
  "kind": "collectionType",
  "modelType": "contentType",
  "modelName": "session",
  "uid": "admin::session",
  "plugin": "admin",
  "globalId": "AdminSession"
 }
};
