variable "name" {
  description = "Name of the EKS cluster and prefix of its roles."
  type        = string
}

variable "kubernetes_version" {
  description = "Kubernetes minor version of the control plane and nodes (the manifests use the preStop sleep action: 1.30 or newer)."
  type        = string
}

variable "subnet_ids" {
  description = "Private subnets for the control plane's network interfaces and the nodes."
  type        = list(string)
}

variable "public_access_cidrs" {
  description = "Ranges allowed to reach the Kubernetes API's public endpoint (an operator's VPN); empty makes the endpoint private only."
  type        = list(string)
}

variable "node_instance_types" {
  description = "Instance types of the managed node group (x86_64)."
  type        = list(string)
}

variable "node_min_size" {
  description = "Fewest nodes (at least one per zone keeps the topology spread meaningful)."
  type        = number
}

variable "node_max_size" {
  description = "Most nodes the cluster autoscaler may start."
  type        = number
}

variable "node_desired_size" {
  description = "Nodes at creation (later left to the autoscaler)."
  type        = number
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
}
