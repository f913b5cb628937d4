// The slug the platform derives from a project name (mirrors slugFromName in @cms/tenancy), shown
// live while typing; the server decides, and appends a suffix when the slug is taken.
export function slugFromName(name: string): string {
  let slug = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^[^a-z]+/, '').replace(/-+$/, '');
  slug = slug.slice(0, 40).replace(/-+$/, '');
  if (slug.length < 3) slug = `project${slug ? `-${slug}` : ''}`;
  return slug;
}
